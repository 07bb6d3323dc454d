def f():
    pass


# Helpers for g.
def g():
    pass
