def f(a):
    if a:
        x = 1
    else:
        x = 1
    y = 2
    return y
