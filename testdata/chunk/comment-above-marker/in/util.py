import os


# Read the whole file at once.
def read(path):
    with open(path) as f:
        return f.read()
