from django.http import HttpRequest

from .catalogue import KINDS


def game_kinds(request: HttpRequest) -> dict:
    return {"game_kinds": KINDS}
