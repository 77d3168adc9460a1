"""The JavaScript catalogue of every page: the strings of static/js (the djangojs domain), and the
engines' messages (games.rules.messages, in the django domain with the rest of the server's words),
so that the browser says each event of a game in its reader's language from its code and parameters.
"""

from __future__ import annotations

import json

from django.http import HttpResponse
from django.utils.translation import get_language, trans_real
from django.views.i18n import JavaScriptCatalog

from games.rules import messages


def _engine_msgids() -> list[str | tuple[str, str]]:
    out: list[str | tuple[str, str]] = list(messages.WORDS)
    for entry in messages.MESSAGES.values():
        out.append(entry if isinstance(entry, str) else (entry[0], entry[1]))
    for engine_labels in _labels():
        out.extend(engine_labels)
    return out


def _labels() -> list[list[str]]:
    from games import rules

    return [list(getattr(engine, "LABELS", {}).values()) for engine in rules.ENGINES.values()]


class SiteCatalog(JavaScriptCatalog):
    # Our own catalogue only (LOCALE_PATHS): the admin's JavaScript words are not the pages'.
    packages = ["games"]

    def get_catalog(self) -> dict:
        catalog = super().get_catalog()
        server = trans_real.translation(get_language())._catalog
        plurals = self._num_plurals
        for msgid in _engine_msgids():
            if isinstance(msgid, tuple):
                forms = [server.get((msgid[0], i)) for i in range(plurals)]
                if all(forms):
                    catalog[msgid[0]] = forms
            elif server.get(msgid):
                catalog[msgid] = server[msgid]
        return catalog

    def render_to_response(self, context, **response_kwargs) -> HttpResponse:
        response = super().render_to_response(context, **response_kwargs)
        # The English templates by code: an event names its messages by code (static/js/i18n.js).
        table = {
            code: entry if isinstance(entry, str) else list(entry)
            for code, entry in messages.MESSAGES.items()
        }
        shared = {"messages": table, "translated": sorted(messages.TRANSLATED), "language": get_language()}
        response.content += f"\nglobalThis.DICE_I18N = {json.dumps(shared)};\n".encode()
        return response
