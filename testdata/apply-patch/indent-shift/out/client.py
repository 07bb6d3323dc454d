class Client:
    def fetch(url):
        resp = get(url)
        if resp.status == 503:
            resp = get(url)
        return resp.body
