def old_add(a, b):
    return sum([a, b])
