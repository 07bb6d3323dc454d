"""Small helpers."""


def calculate_sum(a, b):
    result = a + b
    return result


def calculate_product(a, b):
    return a * b
