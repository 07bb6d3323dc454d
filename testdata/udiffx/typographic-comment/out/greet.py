def greet(name):
    print("Hello, " + name + "!")
    # greet: say hello to name
    # greet - say hello
    return None
