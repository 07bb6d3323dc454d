name​ = "x"
value = 1
﻿import os
label = "a​b"
count = 2
