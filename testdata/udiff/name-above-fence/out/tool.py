import os


def main():
    print(os.path.expanduser("~"))
