from config import DEBUG, PORT


def main():
    print(DEBUG, PORT)
