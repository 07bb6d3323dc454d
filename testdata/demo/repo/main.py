import sys


def hello():
    "print a greeting"

    print("hello")


def main(argv):
    hello()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
