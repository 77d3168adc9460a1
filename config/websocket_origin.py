"""The websockets' Origin check: a handshake is let through on the origins Django's CSRF check allows for
a form posted to the same address, the site's own origin or one of CSRF_TRUSTED_ORIGINS."""

from __future__ import annotations

import copy
from io import BytesIO
from urllib.parse import ParseResult, urlsplit

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.utils.http import is_same_domain

# The scheme of the page that opens a socket on a plain (ws) or TLS (wss) connection.
PAGE_SCHEMES = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


def own_origin(scope: dict) -> str | None:
    """The site's origin as the browser names it for this connection, reckoned as Django's CSRF check does
    for a request (CsrfViewMiddleware._origin_verified): scheme and Host exactly as the client asked, port
    included. None when the Host is not one of ALLOWED_HOSTS: Django answers such a request with 400.

    The handshake is an HTTP GET (RFC 6455), so Django's own request class reads it: get_host() with
    ALLOWED_HOSTS (and DEBUG's localhost) and is_secure() with SECURE_PROXY_SSL_HEADER. daphne puts no
    scheme in a websocket's scope, even with --proxy-headers, so behind the proxy it is the proxy's
    X-Forwarded-Proto, read through SECURE_PROXY_SSL_HEADER as for every page, that tells wss from ws."""
    scheme = PAGE_SCHEMES.get(scope.get("scheme", "ws"), "http")
    request = ASGIRequest({**scope, "method": "GET", "scheme": scheme}, BytesIO())
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    return f"{'https' if request.is_secure() else 'http'}://{host}"


class SiteOriginValidator(OriginValidator):
    """Channels' OriginValidator, given for each connection the origins Django's CSRF check would accept:
    the site's own (own_origin) and CSRF_TRUSTED_ORIGINS. Channels compares host, scheme and port but
    ignores userinfo and reads a pattern without a scheme as any scheme; here an origin must equal an
    allowed one whole, as the browser serialises it, or fall under a `https://*.example.com` trusted
    origin as Django reads those. A missing Origin, "null" (sandboxed frames, file: pages) and a Host
    outside ALLOWED_HOSTS are refused, with Channels' 403 at the handshake."""

    def __init__(self, application):
        super().__init__(application, list(settings.CSRF_TRUSTED_ORIGINS))

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await super().__call__(scope, receive, send)
        own = own_origin(scope)
        if own is None:
            return await WebsocketDenier()(scope, receive, send)
        # The own origin differs from one connection to the next (its Host): Channels' check runs on a
        # copy holding this connection's list, so that concurrent handshakes never see each other's.
        validator = copy.copy(self)
        validator.allowed_origins = [own, *self.allowed_origins]
        return await OriginValidator.__call__(validator, scope, receive, send)

    def match_allowed_origin(self, parsed_origin: ParseResult | None, pattern: str) -> bool:
        if parsed_origin is None or not _serialised_origin(parsed_origin):
            return False
        trusted = urlsplit(pattern)
        if trusted.netloc.startswith("*."):
            return parsed_origin.scheme == trusted.scheme and is_same_domain(
                parsed_origin.netloc, trusted.netloc[1:]
            )
        return parsed_origin.geturl() == pattern


def _serialised_origin(origin: ParseResult) -> bool:
    """An origin as a browser sends it: scheme://host[:port], nothing more (no userinfo, path or query)."""
    return (
        origin.scheme in ("http", "https")
        and bool(origin.hostname)
        and origin.username is None
        and origin.password is None
        and not (origin.path or origin.params or origin.query or origin.fragment)
    )
