def create(req):
    check(req)
    return save(req)


def update(req):
    check(req, strict=True)
    return save(req)
