def scan(a, b):
    """Count lines; a # here is text."""
    total = 0  # running sum
    x = '#' + a
    x = '#' + b
    return total, x
