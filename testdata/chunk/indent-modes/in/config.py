class Config:
    def load(self):
        if self.path:
            data = read(self.path)
            self.apply(data)
        return self
