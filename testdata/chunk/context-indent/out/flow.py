def f(a):
    if a:
        x = 1
    v = 5
        z = 3
    else:
        x = 2
    w = 4
    y = 2
    return y
