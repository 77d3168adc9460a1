from django.http import HttpRequest

from .catalogue import kinds


def game_kinds(request: HttpRequest) -> dict:
    return {"game_kinds": kinds()}
