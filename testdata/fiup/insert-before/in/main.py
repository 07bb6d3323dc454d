import sys

class Application:
    def __init__(self):
        self.args = sys.argv[1:]
