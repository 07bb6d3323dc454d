import os
VERSION = "1.0"
def main():
    print(VERSION)
