def first():
    result = compute(1)
    return result


def second():
    result = compute()
    return result


def third():
    result = compute(3)
    return result
