from calc.ops import add, mul, sub


def test_ops():
    assert add(2, 3) == 5
    assert sub(2, 3) == -1
    assert mul(2, 3) == 6
