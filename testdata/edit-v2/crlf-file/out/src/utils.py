def calculate(a, b):
    # multiply now
    return a * b

def other_function():
    return 0
