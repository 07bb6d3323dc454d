def create(req):
    check(req)
    return save(req)


def update(req):
    check(req)
    return save(req)
