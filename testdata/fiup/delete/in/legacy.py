import os


def current_function():
    return os.getcwd()


def deprecated_function():
    """This function is no longer needed."""
    pass


def other_function():
    return 1
