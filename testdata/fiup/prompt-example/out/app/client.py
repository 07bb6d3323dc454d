import json
import urllib.request


class Client:
    def __init__(self, base_url, timeout=10):
        self.base_url = base_url
        self.timeout = timeout

    def get(self, path):
        with urllib.request.urlopen(self.url(path), timeout=self.timeout) as resp:
            return json.load(resp)

    def url(self, path):
        return self.base_url.rstrip("/") + "/" + path.lstrip("/")
