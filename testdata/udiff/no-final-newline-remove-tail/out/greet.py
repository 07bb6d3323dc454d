def greet(name):
    print("hi", name)