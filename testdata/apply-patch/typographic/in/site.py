TITLE = "Tools - for \"people\""
TAGLINE = 'Fast - and cheap'
FOOTER = "(c) 2024"
