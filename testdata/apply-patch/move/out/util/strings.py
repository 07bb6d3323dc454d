def upper(s):
    return s.upper()
