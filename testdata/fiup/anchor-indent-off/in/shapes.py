class Circle:
    def area(self):
        if self.r < 0:
            raise ValueError("negative radius")
        return 3.14 * self.r ** 2
