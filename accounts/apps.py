from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_out


def _end_session_sockets(sender, request, user, **kwargs) -> None:
    """A sign-out ends its session's sockets too (accounts.sockets); the player's other sessions stay."""
    from accounts import sockets

    if user is not None:
        sockets.end_sockets(user_id=user.pk, only=sockets.session_mark(request.session.session_key))


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        user_logged_out.connect(_end_session_sockets, dispatch_uid="accounts.end_session_sockets")
