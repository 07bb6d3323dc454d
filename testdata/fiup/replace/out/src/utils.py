"""Small helpers."""


def calculate_sum(numbers: list[int]) -> int:
    """Calculate sum of a list of numbers."""
    if not numbers:
        return 0
    return sum(numbers)


def calculate_product(a, b):
    return a * b
