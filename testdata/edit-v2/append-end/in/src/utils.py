def compute():
    value = 1
    final_value = value * 2
    return final_value
