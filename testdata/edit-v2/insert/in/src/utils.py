def existing():
    pass

def another():
    return 1
