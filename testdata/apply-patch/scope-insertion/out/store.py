import os


def load(path):
    """Return the content of the file at path."""
    with open(path) as f:
        return f.read()


def save(path, data):
    """Write data to the file at path, replacing it."""
    with open(path, "w") as f:
        f.write(data)
