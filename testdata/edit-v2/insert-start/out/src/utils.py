"""Module docstring."""

import os

print(os.getcwd())
