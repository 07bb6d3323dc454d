def area(r):
    # the area of a circle
    return 3.14 * r * r
