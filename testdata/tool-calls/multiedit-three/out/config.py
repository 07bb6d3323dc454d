DEBUG = False
TIMEOUT = 30
RETRIES = 5


def url(host):
    return "https://" + host
