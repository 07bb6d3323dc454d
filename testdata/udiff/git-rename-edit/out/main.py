from lib.text import slug

print(slug("Hello World"))
