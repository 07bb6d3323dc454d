def total(items):
    s = 0
    for it in items:
        if it is None:
            continue
        s += it
    return s

TABLE = "a	b	c"
