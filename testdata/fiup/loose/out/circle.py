def area(r):
    # the area of a circle
    return math.pi * r * r
