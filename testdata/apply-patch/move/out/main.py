from util.strings import upper

print(upper("hi"))
