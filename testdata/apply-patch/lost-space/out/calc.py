def total(items):
    acc = 0
    for x in items:
        acc += x
    return acc
