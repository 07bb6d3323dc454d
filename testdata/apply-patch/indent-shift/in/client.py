class Client:
    def fetch(url):
        resp = get(url)
        return resp.body
