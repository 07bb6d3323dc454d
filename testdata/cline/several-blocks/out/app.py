import os


def greet(name):
    return "Hello, " + name + "!"


def main():
    print(greet(os.environ.get("USER", "world")))


if __name__ == "__main__":
    main()
