"""Language choice: Chinese by default, English by a remembered switch."""
from __future__ import annotations

from flask import request, has_request_context

from scoring.i18n import DEFAULT_LANG, LANGS

COOKIE = "lang"


def current_lang() -> str:
    if not has_request_context():
        return DEFAULT_LANG
    chosen = request.args.get("lang") or request.cookies.get(COOKIE)
    if chosen in LANGS:
        return chosen
    if request.path.startswith("/api/"):
        best = request.accept_languages.best_match(LANGS)
        return best or DEFAULT_LANG
    return DEFAULT_LANG
