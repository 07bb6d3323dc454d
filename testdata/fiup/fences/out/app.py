from config import DEBUG, LOG_LEVEL, PORT


def main():
    print(DEBUG, LOG_LEVEL, PORT)
