def main():
    important_call()
