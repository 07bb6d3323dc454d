import pytest

from inventory.stock import Stock


def test_remove_more_than_in_stock():
    stock = Stock()
    stock.add("apple", 2)
    with pytest.raises(ValueError):
        stock.remove("apple", 3)
    assert stock.remove("apple", 2) == 0
