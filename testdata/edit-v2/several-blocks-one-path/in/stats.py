def total(xs):
    return sum(xs)


def report(xs):
    print(total(xs))
