class Counter:
    def __init__(self):
        self.n = 0
            
        self.step = 1

    def tick(self):
        self.n += self.step
