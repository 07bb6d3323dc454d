"""Basic arithmetic."""

from calc.legacy import old_add


def add(a, b):
    return old_add(a, b)


def sub(a, b):
    return a - b
