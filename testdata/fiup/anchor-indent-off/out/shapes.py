class Circle:
    def area(self):
        if self.r < 0:
            raise ValueError("negative radius")
        return math.pi * self.r ** 2
