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
        return accept_language()
    return DEFAULT_LANG


def accept_language() -> str:
    """The first language of Accept-Language we speak (``zh-CN`` counts as ``zh``)."""
    for value, _quality in request.accept_languages:  # highest quality first
        primary = value.split("-")[0].split("_")[0].lower()
        if primary in LANGS:
            return primary
    return DEFAULT_LANG
