def total(items):
    acc = 0
    for item in items:
        acc += item.price
    # Round to cents only at the end.
    return round(acc, 2)
