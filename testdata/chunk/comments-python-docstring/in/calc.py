def area(w, h):
    """Return the area.

    Both sides in metres; a # here is text.
    """
    return w * h


TEMPLATE = """
# not a comment: part of the string
size = 1
"""


def size():
    return 1
