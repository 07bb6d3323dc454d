def calculate_total(items):
    total = 0
    for item in items:
        total += item
    return total


def average(items):
    return calculate_total(items) / len(items)
