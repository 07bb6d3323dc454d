def first():
    result = compute()
    return result


def second():
    result = compute()
    return result


def third():
    result = compute()
    return result
