DEBUG = True
PORT = 8000
HOST = "localhost"
