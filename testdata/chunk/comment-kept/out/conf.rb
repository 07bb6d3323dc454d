# Set x.
x = 10
# About y.
y = 2
