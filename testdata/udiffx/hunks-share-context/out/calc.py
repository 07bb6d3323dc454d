def first():
    return 2


def second():
    return 4
