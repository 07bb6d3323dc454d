import os

VERSION = "1.1"


def main():
    print(VERSION)
