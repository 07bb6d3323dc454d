class Foo:
    def __init__(self):
        self.value = 0

    def run(self):
        return self.value + 1

    def stop(self):
        pass
