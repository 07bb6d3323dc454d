"""Stock levels."""


class Stock:
    def __init__(self):
        self.items = {}

    def add(self, name, count):
        self.items[name] = self.items.get(name, 0) + count
        return self.items[name]

    def remove(self, name, count):
        if count > self.items.get(name, 0):
            raise ValueError(f"only {self.items.get(name, 0)} {name} in stock")
        self.items[name] -= count
        return self.items[name]
