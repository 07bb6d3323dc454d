import os


def greet(name):
    return "hi " + name


def main():
    print(greet("world"))


if __name__ == "__main__":
    main()
