from config import HOST, PORT


def serve():
    print("serving on", HOST, PORT)
