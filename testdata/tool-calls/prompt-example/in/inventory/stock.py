"""Stock levels."""


class Stock:
    def __init__(self):
        self.items = {}

    def add(self, name, count):
        self.items[name] = self.items.get(name, 0) + count
        return self.items[name]

    def remove(self, name, count):
        self.items[name] = self.items.get(name, 0) - count
        return self.items[name]
