def create(request):
    data = request.json()
    return save(data)


def update(request):
    data = request.json()
    return save(data)
