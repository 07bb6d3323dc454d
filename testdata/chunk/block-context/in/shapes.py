class Square:
    def area(self):
        # the side squared
        return self.side ** 2


class Rect:
    def area(self):
        return self.w * self.h
