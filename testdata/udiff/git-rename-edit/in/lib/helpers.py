def slug(text):
    return text.lower().replace(" ", "-")


def title(text):
    return text.title()
