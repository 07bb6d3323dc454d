from lib.helpers import slug

print(slug("Hello World"))
