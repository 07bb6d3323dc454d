class Cart:
    def __init__(self):
        self.items = []

    def add(self, item):
        if item.price < 0:
            raise ValueError("negative price")
        self.items.append(item)

    def total(self):
        return round(sum(i.price for i in self.items), 2)
