def greet(name):
    print("Hello, " + name + "!")
    print("Bye, " + name)
    return None
