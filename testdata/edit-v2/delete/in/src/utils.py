def main():
    deprecated_call()
    important_call()
