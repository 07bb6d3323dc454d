DEBUG = False
TIMEOUT = 10
RETRIES = 3


def url(host):
    return "http://" + host
