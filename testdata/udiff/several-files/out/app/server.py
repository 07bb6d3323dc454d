from config import HOST, PORT


def serve():
    print(f"serving on {HOST}:{PORT}")
