from calc import average, calculate_sum


def test_sum():
    assert calculate_sum([1, 2, 3]) == 6


def test_average_empty():
    assert average([]) == 0
