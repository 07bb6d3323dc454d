TITLE = "Tools - for \"people\""
TAGLINE = "Fast, and free"
FOOTER = "(c) 2024"
