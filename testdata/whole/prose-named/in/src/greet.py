import sys


def greet(name):
    return "Hello " + name


def main():
    print(greet(sys.argv[1]))
