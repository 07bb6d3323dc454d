import json
import urllib.request


class Client:
    def __init__(self, base_url):
        self.base_url = base_url

    def get(self, path):
        with urllib.request.urlopen(self.base_url + path) as resp:
            return json.load(resp)
