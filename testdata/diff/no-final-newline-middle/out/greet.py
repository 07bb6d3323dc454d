def greet(name):
    print("hello", name)


def bye(name):
    print("bye", name)