from app.client import Client


def test_url_joins_with_one_slash():
    assert Client("http://x/").url("/a") == "http://x/a"
