"""Stock levels."""

from inventory.legacy import log


class Stock:
    def __init__(self):
        self.items = {}

    def add(self, name, count):
        log("add", name, count)
        self.items[name] = self.items.get(name, 0) + count
        return self.items[name]

    def remove(self, name, count):
        log("remove", name, count)
        self.items[name] = self.items.get(name, 0) - count
        return self.items[name]
