def f():
    pass


# h does nothing yet.
def h():
    pass


# Helpers for g.
def g():
    pass
