"""What every game page shares: the tab bar, the card picker's configuration, partial-or-full responses.

Answers that are the same for every request are made once and kept (per app): the picker's configuration
per game and rules, and each game page as a GET renders it, per URL and language (see :class:`PageCache`).
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict

from flask import current_app, g, render_template, request, url_for
from babel import support
from flask_babel import get_locale, get_translations, gettext
from flask_wtf.csrf import generate_csrf
from jinja2 import pass_eval_context
from markupsafe import Markup

from wtforms.i18n import messages_path

from scoring.cards import BIG, LITTLE, RANK_NAMES, SUITS
from scoring.i18n import LANGS, render, signed
from scoring.registry import all_games

from .extensions import htmx
from .i18n import COOKIE, current_lang
from .pwa import offline_mode_on



def N_(msgid: str) -> str:
    """Marks a page string for extraction (pybabel knows ``N_``); :func:`page_text` translates it."""
    return msgid


TAB_NAMES = {"rules": N_("规则"), "check": N_("检查"), "hint": N_("提示"), "settle": N_("结算"),
             "trick": N_("谁赢这墩"), "bidding": N_("叫分"), "rounds": N_("记圈")}
TAB_ENDPOINTS = {"rounds": "live.rounds"}


def tabs_for(game):
    """(endpoint, label) for each tab of the game, in its own order (the live page's: the game's own word)."""
    return [(TAB_ENDPOINTS.get(tab, f"pages.{tab}"), _tab_label(game, tab)) for tab in game.tabs]


def _tab_label(game, tab: str) -> str:
    words = game.live_hand.words.get("tab") if tab == "rounds" and game.live_hand is not None else None
    return render(words, current_lang()) if words is not None else page_text(TAB_NAMES[tab])


def page_text(msgid: str) -> str:
    """A page string in the request's language, the templates' ``_()``. Each app looks each string up once
    per language and keeps it: Flask-Babel's gettext walks the request context for every call (~13 µs),
    and a page has 20 to 75 of them."""
    table = g.get("paiju_texts")
    if table is None:
        tables = current_app.extensions.setdefault("paiju_texts", {})
        table = g.paiju_texts = tables.setdefault(str(get_locale()), {})
    text = table.get(msgid)
    if text is None:
        text = table[msgid] = get_translations().ugettext(msgid)
    return text


PICKER_CACHE_SIZE = 512


def picker_config(game, rules, field: str | None = None) -> str:
    """What the card picker offers for this game and these rules (JSON), made once per game and rules;
    for ``field``, without the ranks the game says it never holds (``Game.never_held``)."""
    if field is not None:
        left_out = game.never_held(field, rules)
        if left_out:
            return _without(picker_config(game, rules), left_out)
    try:
        key = (game.slug, tuple(sorted(rules.items())))
        hash(key)
    except TypeError:  # a rule value that is a list: not worth keeping
        return _picker_config(game, rules)
    cache = current_app.extensions.setdefault("paiju_pickers", {})
    if key not in cache:
        if len(cache) >= PICKER_CACHE_SIZE:  # house rules combine many ways: keep the memory bounded
            cache.clear()
        cache[key] = _picker_config(game, rules)
    return cache[key]


def _without(config: str, ranks: frozenset[int]) -> str:
    names = {RANK_NAMES.get(r) for r in ranks}
    jokers = {str(j) for j in (BIG, LITTLE) if j.rank in ranks}
    picked = json.loads(config)
    picked["ranks"] = [r for r in picked["ranks"] if r not in names]
    picked["jokers"] = [j for j in picked["jokers"] if j not in jokers]
    return json.dumps(picked, ensure_ascii=False)


def _picker_config(game, rules) -> str:
    deck = game.deck(rules)
    distinct = set(deck.all_cards())
    suits = [s.symbol for s in SUITS if any(c.suit == s for c in distinct)]
    ranks = [RANK_NAMES[r] for r in (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2)
             if any(c.rank == r for c in distinct)]
    jokers = [str(j) for j in (BIG, LITTLE) if j in distinct]
    return json.dumps({"suits": suits, "ranks": ranks, "jokers": jokers, "bare": bool(game.bare_ranks)},
                      ensure_ascii=False)


#: the game pages whose answer to a GET depends on nothing but the URL and the language (the forms start
#: empty; the CSRF token is the session's own and is put in afresh). The 记圈 page is not one: it shows
#: what the session holds.
CACHED_PAGES = frozenset({"pages.rules", "pages.check", "pages.hint", "pages.trick", "pages.bidding",
                          "pages.settle"})


class PageCache:
    """Rendered GET pages by (endpoint, URL, language, with a form token or not, offline mode on or not), the most
    recent ``size`` of them. A page is kept split at its CSRF token, so each answer carries the token of the request it
    answers."""

    def __init__(self, size: int = 256):
        self.size = size
        self._pages: OrderedDict[tuple, tuple[str, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> tuple[str, ...] | None:
        with self._lock:
            parts = self._pages.get(key)
            if parts is not None:
                self._pages.move_to_end(key)
            return parts

    def put(self, key: tuple, parts: tuple[str, ...]) -> None:
        with self._lock:
            self._pages[key] = parts
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)


def _csrf_token() -> str | None:
    """The token the request's forms carry, if any form was made (Flask-WTF keeps it on ``g``)."""
    return g.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))


def _page_cache() -> PageCache:
    return current_app.extensions.setdefault("paiju_pages", PageCache())


def _page_key(with_token: bool) -> tuple:
    # offline mode on or not: whether the page brings the engine's script (webapp/pwa.py)
    return request.endpoint, request.full_path, current_lang(), with_token, offline_mode_on()


def _keeps_pages() -> bool:
    # templates reloading as they change (debug): every page rendered afresh
    return (request.method == "GET" and request.endpoint in CACHED_PAGES
            and not current_app.jinja_env.auto_reload)


def kept_form_page() -> str | None:
    """A form page this URL already rendered in this language, carrying this session's form token; None when
    there is none yet. Its view asks first, before building the forms only a fresh render needs."""
    if not _keeps_pages():
        return None
    parts = _page_cache().get(_page_key(with_token=True))
    return generate_csrf().join(parts) if parts is not None else None


def _cached_render(template: str, ctx: dict) -> str:
    cache = _page_cache()
    token = _csrf_token()
    key = _page_key(token is not None)
    parts = cache.get(key)
    if parts is not None:
        return (token or "").join(parts)
    html = render_template(template, partial=False, **ctx)
    cache.put(key, tuple(html.split(token)) if token else (html,))
    return html


def page(game, tab: str, template: str, **ctx):
    ctx.update(game=game, tab=tab if "." in tab else f"pages.{tab}", tabs=tabs_for(game))
    if _keeps_pages():
        return _cached_render(template, ctx)
    if htmx and request.method == "POST":
        return render_template(template, partial=True, **ctx)
    return render_template(template, partial=False, **ctx)


@pass_eval_context
def template_gettext(eval_ctx, msgid: str, **variables):
    """The templates' ``_()``: what Jinja's newstyle gettext does (mark safe, then ``%`` the variables in,
    escaped), from :func:`page_text`, in one call where Jinja's and Flask-Babel's take five."""
    text = page_text(msgid)
    if eval_ctx.autoescape:
        text = Markup(text)
    return text % variables


class WTFormsCatalog:
    """WTForms' own messages in the request's language, each language's catalogue read once. (Flask-WTF
    reads and parses it afresh for every request that builds a form; it takes whatever the request holds.)"""

    def __init__(self):
        self._catalogs: dict[str, support.Translations] = {}

    def catalog(self):
        locale = get_locale()
        key = str(locale)
        if key not in self._catalogs:
            self._catalogs[key] = support.Translations.load(messages_path(), [locale], domain="wtforms")
        return self._catalogs[key]

    def ugettext(self, string):
        return self.catalog().ugettext(string)

    def ungettext(self, singular, plural, n):
        return self.catalog().ungettext(singular, plural, n)


def init_app(app) -> None:
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext)
    app.jinja_env.filters["signed"] = signed  # a number a player reads: +5, −5 (U+2212), 0

    class RequestWithFormCatalog(app.request_class):
        """Flask-WTF reads ``request.wtforms_translations``: a class attribute, so no request sets it."""
        wtforms_translations = WTFormsCatalog()

    app.request_class = RequestWithFormCatalog


def warm_up(app) -> None:
    """Answer every game page and static answer once in each language, as a browser asks for them (the
    language from its cookie): templates compiled, catalogues read, pages and answers kept. A server that
    forks its workers from here (gunicorn's master) hands them all of it: a new worker's first settle
    page took about 4 ms instead of about 125 ms when this was measured (bench/results/session6-issue11.txt).
    What is left of a first request is the worker copying the memory pages it writes to (500 to 1,000
    of them), once in its life. Every template is compiled, also those of pages that need a table (a worker's
    first table page compiled eleven, about 55 ms). Asked of a host the app answers for: ``SERVER_NAME``, else
    the first of ``TRUSTED_HOSTS`` (``localhost`` is refused where they are set)."""
    trusted = app.config.get("TRUSTED_HOSTS") or ["localhost"]
    host = app.config.get("SERVER_NAME") or trusted[0].lstrip(".")
    base_url = f"{app.config['PREFERRED_URL_SCHEME']}://{host}"
    with app.test_request_context(base_url=base_url):
        tabs = [(game, TAB_ENDPOINTS.get(tab, f"pages.{tab}")) for game in all_games() for tab in game.tabs]
        urls = [url_for(endpoint, slug=game.slug) for game, endpoint in tabs if endpoint in CACHED_PAGES]
        urls += [url_for("api.games"), url_for("api.openapi_json"), url_for("pages.home")]
    for name in app.jinja_env.list_templates(extensions=("html",)):
        app.jinja_env.get_template(name)  # the ledger's pages too, which no request here reads (no table)
    for lang in LANGS:
        client = app.test_client()
        client.set_cookie(COOKIE, lang, domain=host.split(":")[0])
        for url in urls:
            client.get(url, base_url=base_url)


def render_csrf_error():
    return gettext("表单已失效，请刷新页面后再提交。")


