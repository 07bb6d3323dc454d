def calculate_sum(items):
    total = 0
    for item in items:
        total += item
    return total


def average(items):
    if not items:
        return 0
    return calculate_sum(items) / len(items)
