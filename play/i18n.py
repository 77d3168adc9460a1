"""The JavaScript catalogue of every page: the strings of static/js (the djangojs domain), and the
project's server catalogue (the django domain: the engines' messages of games.rules.messages, box
labels, colours), so that the browser says each event of a game in its reader's language from its code
and parameters.
"""

from __future__ import annotations

import gettext as gettext_module
import json

from django.conf import settings
from django.http import Http404, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language, to_locale
from django.views.i18n import JavaScriptCatalog

from games.rules import messages


def _project_catalog(language: str) -> dict:
    """The project's own server catalogue (LOCALE_PATHS; not Django's), for the words the engines and
    the server hand to the pages as data: event messages, box labels, colours."""
    try:
        found = gettext_module.translation("django", str(settings.LOCALE_PATHS[0]), [to_locale(language)])
    except OSError:
        return {}
    return found._catalog


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
        catalog = {}
        plurals = {}
        for key, value in _project_catalog(get_language()).items():
            if key == "":
                continue
            if isinstance(key, tuple):
                plurals.setdefault(key[0], {})[key[1]] = value
            else:
                catalog[key] = value
        for msgid, forms in plurals.items():
            catalog[msgid] = [forms.get(i, "") for i in range(self._num_plurals)]
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
