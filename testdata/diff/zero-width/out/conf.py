name​ = "x"
value = 10
﻿import os
label = "a​b"
count = 3
