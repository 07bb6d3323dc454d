import sys


def greet(name):
    # Say hello.
    return "Hello " + name


def main():
    print(greet(sys.argv[1]))
