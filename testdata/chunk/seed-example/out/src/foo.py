class Foo:
    def __init__(self):
        self.value = 0

    def run(self):
        print("value:", self.value)
        return self.value

    def stop(self):
        pass
