import os


# Read the whole file at once.
def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()
