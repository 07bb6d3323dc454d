import json

class Config:
    def __init__(self, path):
        self.path = path

    def load(self):
        if self.path:
            data = read(self.path)
            if data:
                self.apply(data)
        return self

    # trailing note, indented as written
