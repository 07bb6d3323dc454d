import sys

from typing import Optional
from dataclasses import dataclass

class Application:
    def __init__(self):
        self.args = sys.argv[1:]
