def calculate(a, b):
    return a + b

def other_function():
    return 0
