def first():
    value = load()
    return value


def second():
    value = load()
    return value or {}


def third():
    value = load()
    return value or {}
