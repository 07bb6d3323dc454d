import sys


def greet(name):
    # Say hello, politely.
    return f"Hello, {name}!"


def farewell(name):
    return f"Goodbye, {name}."


def main():
    print(greet(sys.argv[1]))
