def total(items):
    s = 0
    for it in items:
        s += it
    return s

TABLE = "a	b	c"
