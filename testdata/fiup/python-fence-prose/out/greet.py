def greet(name):
    return f"Hello, {name}!"


def farewell(name):
    return f"Bye, {name}!"
