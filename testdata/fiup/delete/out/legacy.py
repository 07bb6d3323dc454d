import os


def current_function():
    return os.getcwd()


def other_function():
    return 1
