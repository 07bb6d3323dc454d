def first(items):
    if not items:
        pass
    return items[:1]


def rest(items):
    if not items:
        pass
    return items[1:]
