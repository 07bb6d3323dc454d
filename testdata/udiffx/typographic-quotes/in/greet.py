def greet(name):
    print("Hello, " + name + "!")
    print('Bye - see you')
    return None
