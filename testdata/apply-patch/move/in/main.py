from helper import shout

print(shout("hi"))
