"""The JavaScript catalogue of every page: the strings of static/js (the djangojs domain), and the
project's server catalogue (the django domain: the engines' messages of games.rules.messages, box
labels, colours), so that the browser says each event of a game in its reader's language from its code
and parameters.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import polib
from django.conf import settings
from django.http import Http404, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language, to_locale
from django.views.i18n import JavaScriptCatalog

from games.rules import messages


def _project_catalog(language: str) -> dict:
    """The project's own server catalogue (LOCALE_PATHS; not Django's), for the words the engines and
    the server hand to the pages as data: event messages, box labels, colours. A message with plural
    forms is the list of them. Read with polib: the standard library's gettext has no public way to
    list a catalogue's messages."""
    path = Path(settings.LOCALE_PATHS[0]) / to_locale(language) / "LC_MESSAGES" / "django.mo"
    try:
        changed = path.stat().st_mtime_ns
    except OSError:
        return {}
    return _read_catalog(path, changed)


@lru_cache(maxsize=8)
def _read_catalog(path: Path, changed: int) -> dict:
    """The compiled catalogue at ``path`` as it was when last ``changed``."""
    compiled = polib.mofile(str(path))
    found = re.search(r"nplurals\s*=\s*(\d+)", compiled.metadata.get("Plural-Forms", ""))
    forms = int(found.group(1)) if found else 2
    catalog: dict = {}
    for entry in compiled:
        if entry.msgid_plural:
            catalog[entry.msgid] = [entry.msgstr_plural.get(i, "") for i in range(forms)]
        else:
            catalog[entry.msgid] = entry.msgstr
    return catalog


class SiteCatalog(JavaScriptCatalog):
    """At /jsi18n/<language>/: the language is in the address, so that a browser may keep each
    language's catalogue (an hour) and a page switched to another language asks for the other one."""

    # Our own catalogue only (LOCALE_PATHS): the admin's JavaScript words are not the pages'.
    packages = ["games"]
    max_age = 3600

    def get(self, request, *args, **kwargs):
        language = kwargs.pop("language", "")
        if language not in dict(settings.LANGUAGES):
            raise Http404("No such language.")
        with translation.override(language):
            response = super().get(request, *args, **kwargs)
        patch_cache_control(response, public=True, max_age=self.max_age)
        return response

    def get_catalog(self) -> dict:
        catalog = dict(_project_catalog(get_language()))
        catalog.update(super().get_catalog())
        return catalog

    def render_to_response(self, context, **response_kwargs) -> HttpResponse:
        response = super().render_to_response(context, **response_kwargs)
        # The English templates by code: an event names its messages by code (static/js/i18n.js).
        table = {
            code: entry if isinstance(entry, str) else list(entry)
            for code, entry in messages.MESSAGES.items()
        }
        shared = {
            "messages": table,
            "translated": sorted(messages.TRANSLATED),
            "naming": sorted(messages.NAMING),
            "language": get_language(),
        }
        response.content += f"\nglobalThis.DICE_I18N = {json.dumps(shared)};\n".encode()
        return response
