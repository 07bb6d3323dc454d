def greet(name):
    print("Hello, " + name + "!")
    # greet: say hello to name
    return None
