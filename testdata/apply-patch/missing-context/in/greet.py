def greet(person):
    print('Hello ' + person)
    return None
