def sum_all(xs):
    return sum(xs)


def mean(xs):
    return sum_all(xs) / len(xs)


def report(xs):
    print(sum_all(xs))
