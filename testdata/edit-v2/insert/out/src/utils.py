def existing():
    pass

def new_function():
    return 42

def another():
    return 1
