"""Settings."""

NAME = "demo"


class Settings:
    debug = False
