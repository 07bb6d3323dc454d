x = 1
# About y.
y = 2
