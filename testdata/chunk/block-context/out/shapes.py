class Square:
    def area(self):
        return self.side * self.side


class Rect:
    def area(self):
        return self.w * self.h
