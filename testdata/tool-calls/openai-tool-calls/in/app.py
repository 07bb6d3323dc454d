def greet(name):
    print("hello " + name)
