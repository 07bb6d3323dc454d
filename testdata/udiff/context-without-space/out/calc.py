def area(w, h):

    return round(w * h, 2)


def perimeter(w, h):
    return 2 * (w + h)
