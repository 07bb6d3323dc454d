class Circle:
    def __init__(self, r):
        self.r = r

    def describe(self):
        name = type(self).__name__
        return name


class Square:
    def __init__(self, side):
        self.side = side

    def describe(self):
        name = type(self).__name__
        return name
