from django.http import HttpRequest

from games.catalogue import kinds


def game_kinds(request: HttpRequest) -> dict:
    return {"game_kinds": kinds()}
