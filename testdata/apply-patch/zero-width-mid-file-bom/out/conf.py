name​ = "x"
value = 1
import os
import sys
label = "a​b"
count = 2
