def total(items):
    s = 0
    for x in items:
        s += x
    return s
