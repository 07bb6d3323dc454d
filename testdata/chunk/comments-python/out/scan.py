def scan(a, b):
    """Count lines; a # here is text."""
    total = 1
    x = '#' + a
    x = '#' + c
    return total, x
