from src import config


def load():
    return {"debug": config.DEBUG, "port": config.PORT}
