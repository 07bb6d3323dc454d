def greet(name):
    print("hi", name)


def bye(name):
    print("bye", name)