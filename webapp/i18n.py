"""Language choice: Chinese by default, English by a remembered switch."""
from __future__ import annotations

from typing import Callable

from flask import Request, has_request_context, request

from scoring.i18n import DEFAULT_LANG, LANGS
from scoring.result_view import message_in_words

COOKIE = "lang"


#: where a request keeps the language chosen for it (asked for several times per request)
_CHOSEN = "paiju.lang"


def current_lang() -> str:
    if not has_request_context():
        return DEFAULT_LANG
    req = request._get_current_object()  # the request itself: each read through the proxy is a context look-up
    lang = req.environ.get(_CHOSEN)
    if lang is None:
        lang = req.environ[_CHOSEN] = _chosen_lang(req)
    return lang


def _chosen_lang(req: Request) -> str:
    # an API client usually sends no query, cookie or Accept-Language: none is parsed that is not there
    environ = req.environ
    chosen = ((environ.get("QUERY_STRING") and req.args.get("lang"))
              or (environ.get("HTTP_COOKIE") and req.cookies.get(COOKIE)))
    if chosen in LANGS:
        return chosen
    if req.path.startswith("/api/") and environ.get("HTTP_ACCEPT_LANGUAGE"):
        return accept_language(req)
    return DEFAULT_LANG


def accept_language(req: Request) -> str:
    """The first language of ``req``'s Accept-Language we speak (``zh-CN`` counts as ``zh``)."""
    for value, _quality in req.accept_languages:  # highest quality first
        primary = value.split("-")[0].split("_")[0].lower()
        if primary in LANGS:
            return primary
    return DEFAULT_LANG


# ---------------------------------------------------------------------------
# Engine messages on pages: the engine may name an API field ("rounds[2].cards");
# a player filled in a form, so pages say what the form itself calls it.
# ---------------------------------------------------------------------------

def page_message(exc, lang: str | None = None, label_of: Callable[[str], str | None] | None = None,
                 names: tuple[str, ...] | None = None) -> str:
    """An engine error as a page shows it: a quoted field path becomes the form's own label for it
    (``label_of(path)``, from the form that was sent); with ``names`` (the players in the seats, in seat
    order), a seat is called by its player's name."""
    return message_in_words(exc, lang or current_lang(), label_of, names)
