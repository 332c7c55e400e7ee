"""The table page and its live part: what they show, read with few queries however long the table."""
from __future__ import annotations

import secrets
from urllib.parse import urlsplit
from datetime import timezone

from flask import current_app, get_flashed_messages, make_response, render_template, request, url_for
from flask_babel import gettext

from scoring.i18n import render
from scoring.registry import get_game

from .. import forms as game_forms
from ..i18n import current_lang
from ..pages import picker_config
from .errors import not_found
from .exports import CHART_POINTS, COLORS, chart_svg, qr_svg
from .forms import VersionForm
from .paging import PAGE_WEIGHT, latest_within
from .models import LedgerTable
from .queries import (changed_since, check_token, evenings_around, get_table, hand_count, hands_numbered,
                      last_hand, number_range, running_totals, table_version)
from .settling import carried_fields
from .shown import seat_names, shown_of
from .table_rules import HandRules, first_hand_rules
from .web import EDIT_COOKIE, edit_link

POLL_SECONDS = 3  # how often a table page asks for new hands (LIVE_POLL_SECONDS: the browser tests ask sooner)
PAGE_HANDS = 50  # hands a table page shows at most (fewer of large ones: .paging); older ones are a link away
#: the stored characters (input and result) of the hands a table page shows at most: half an API page's, as a page
#: does more with each hand (its input in words, its steps in HTML): about 9 of the largest Q783 hands, the 50 latest
#: ordinary ones. A fresh process renders each shown hand's steps once (about 8 ms a largest hand).
PAGE_VIEW_WEIGHT = PAGE_WEIGHT // 2


def _query_int(name: str) -> int | None:
    """A query parameter of a few ASCII digits as a number, else None (``str.isdigit`` alone passes "²")."""
    raw = request.args.get(name, "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 9 else None


def edit_table(table_id: str) -> tuple[LedgerTable, str]:
    """The table and the edit token its cookie holds (refused without the right one)."""
    table = get_table(table_id)
    token = request.cookies.get(EDIT_COOKIE)
    check_token(table, token)
    return table, token


def padded(deltas: list[int], table: LedgerTable) -> list[int]:
    """A hand's deltas for every player of the table (one who joined later: 0)."""
    return list(deltas) + [0] * (len(table.players) - len(deltas))


def moment(when) -> dict | None:
    """A stored time for a ``<time>`` element: ISO 8601 (UTC) and a short fallback text
    (static/tables.js shows it in the phone's own time zone)."""
    if when is None:
        return None
    when = when if when.tzinfo else when.replace(tzinfo=timezone.utc)
    return {"iso": when.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z"),
            "text": when.astimezone(timezone.utc).strftime("%H:%M UTC")}


def picker(game, table: LedgerTable):
    try:
        return picker_config(game, game.ruleset.resolve(table.rules))
    except Exception:  # noqa: BLE001 - the picker is a convenience only
        return "{}"


def seat_limits(table: LedgerTable) -> tuple[int, int]:
    return get_game(table.game).seat_range(table.rules)


def card_words(game, lang: str) -> dict:
    """The words every hand's card uses, translated once per page (templates/tables/_hand.html), with
    the game's own words for what it carries."""
    words = {"hand": gettext("第%(n)s局"), "series": gettext("第%(n)s大局"), "series_over": gettext("大局结束"),
             "edited": gettext("改于"), "edit": gettext("修改"), "delete": gettext("删除"),
             "running": gettext("累计"), "steps": gettext("计算步骤"), "rules": gettext("本局规则：")}
    words.update((name, render(word, lang)) for name, word in game.ledger_words().items())
    return words


def _undone_words(game, rules, table, lang) -> dict | None:
    """The hand the last undo took, for the redo button: its number and its input in words."""
    taken = table.undone
    if not taken:
        return None
    seats = taken.get("seats") or table.seating()
    words = game.input_words(taken.get("input") or {}, rules, tuple(table.names_of(seats)))
    return {"number": taken.get("number"), "words": [render(w, lang) for w in words]}


def _hand_row(game, book: HandRules, table, hand, running, series_number, lang, shown: dict) -> dict:
    """One hand's card: its input in words under its own rules, and those rules where they differ from the
    evening's first hand's."""
    seats = hand.seating()
    words = game.input_words(hand.input, book.of(hand.rules), tuple(table.names_of(seats)))
    return {"number": hand.number, "deltas": padded(hand.deltas, table), "running": list(running),
            "rules": [render(w, lang) for w in book.since_first(hand.rules)],
            "people": [(i, table.players[i]) for i in seats], "steps": shown.get("steps", []),
            **{key: shown.get(key) for key in game.carried_fields}, "game_over": game.ends_series(shown),
            "big_round": series_number, "words": [render(w, lang) for w in words],
            "recorded": moment(hand.created_at), "edited": moment(hand.edited_at)}


def ledger_view(table: LedgerTable, before: int | None = None, only: list[int] | None = None) -> dict:
    """Everything the live part of the page shows: totals and chart over every hand (window sums in SQL
    from the deltas), and the latest PAGE_HANDS hands that fit a read (before hand ``before``; of those, the ``only``
    ones, when they all fit; else every one) in full. What Python reads does not grow with the table: the chart's points and the shown
    hands."""
    lang = current_lang()
    game = get_game(table.game)
    rules = game.ruleset.resolve(table.rules)
    seats = len(table.players)
    count = hand_count(table.id)
    numbers = latest_within(table.id, PAGE_HANDS, before, PAGE_VIEW_WEIGHT)
    if only is not None and not set(only) <= set(numbers):
        only = None  # new hands past what one read shows: the page gets its hands again, with the link to older ones
    wanted = numbers if only is None else [n for n in numbers if n in set(only)]
    step = max(1, -(-count // CHART_POINTS))
    runs = running_totals(table.id, seats, step, count, wanted)
    by_number = {number: (running, ended) for _, number, running, ended in runs}
    hands = hands_numbered(table.id, wanted)
    shown = shown_of(table.id, [(hand.number, hand.changed_version) for hand in hands], lang,
                     [seat_names(table.players, hand.seating()) for hand in hands])
    book = HandRules(table, first_hand_rules(table.id))
    rows = [_hand_row(game, book, table, hand, by_number[hand.number][0],
                      by_number[hand.number][1] + 1 if game.carries_state else None, lang, result)
            for hand, result in zip(hands, shown)]
    points = [(0, [0] * seats)] + [(i, running) for i, _, running, _ in runs if i % step == 0 or i == count]
    first, last = number_range(table.id)
    return {"table": table, "rows": list(reversed(rows)), "hand_count": count,
            "totals": points[-1][1], "chart": chart_svg(table.players, points, count), "colors": COLORS,
            **carried_fields(table, last_hand(table.id)), "last_number": last,
            "poll": current_app.config.get("LIVE_POLL_SECONDS", POLL_SECONDS),
            "game": game, "before": before, "only": only, "older": numbers[0] if numbers and numbers[0] != first else None,
            "undone": _undone_words(game, rules, table, lang), "L": card_words(game, lang)}


def rules_shown(table: LedgerTable) -> list[tuple[str, str]]:
    """The house rules as (label, value) lines, preset first."""
    game = get_game(table.game)
    lang = current_lang()
    rows = []
    try:
        preset = game.ruleset.preset(table.rules.get("preset"))
        rows.append((gettext("预设"), render(preset.label, lang)))
        base = dict(preset.settings)
    except KeyError:
        base = {}
    for opt in game.ruleset.options:
        if opt.name not in table.rules:
            continue
        value = table.rules[opt.name]
        shown = render(opt.value_label(value), lang)
        changed = value != base.get(opt.name, opt.default)
        rows.append((render(opt.label, lang) + ("" if not changed else " *"), shown))
    return rows


def _live_url(table, editing: bool, before: int | None, last_number: int | None):
    """What the page polls: with the version it shows and its last hand, so a poll sends only what changed
    since; a page of older hands does not poll (new hands would not be on it)."""
    if before is not None:
        return None
    stay = {"stay": 1} if request.args.get("stay") and not editing else {}
    return url_for("tables.edit_live" if editing else "tables.live", table_id=table.id, v=table.version,
                   n=last_number or 0, **stay)


def new_form_key() -> str:
    """The idempotency key a hand form carries: one per rendered form, so a resend records one hand."""
    return secrets.token_urlsafe(18)


def phone_settle(table: LedgerTable, shown: dict) -> dict:
    """What a phone in offline mode needs to settle the hands saved here with no signal as the ledger will
    (issue 29; the phone's engine chains them: ``offline_page.held_hands``): the game, the table's house rules,
    the players and their seating, what the next hand carries from the last one (the page's ``shown`` carried
    fields, None: a fresh start), and the table's API address."""
    game = get_game(table.game)
    carried = {key: shown[key] for key in game.carried_fields if shown.get(key) is not None}
    return {"slug": game.slug, "rules": table.rules or {}, "players": list(table.players), "seats": table.seating(),
            "carried": carried or None, "api": url_for("tables_api.api_read", table_id=table.id)}


def rules_form_of(table: LedgerTable, posted=None):
    """The 规则 panel's form (templates/tables/_rules.html): the new-table page's rules sub-form, filled with the
    table's rules now (or as ``posted``)."""
    game = get_game(table.game)
    form_class = game_forms.rules_form_class(game)
    if posted is not None:
        return form_class(posted, prefix="rules")
    return form_class(data=game_forms.rules_form_data(game, table.rules), prefix="rules")


def _loopback(host: str) -> bool:
    host = host.lower()
    return host in ("localhost", "::1") or host.startswith("127.") or host.endswith(".localhost")


def only_this_machine(url: str) -> bool:
    """The link names an address no other phone can open (this machine's own: 127.0.0.1, localhost, ::1), and
    the page is read on this machine itself: the host's own browser, who started the server (a hint to start
    it otherwise means nothing to a player)."""
    return _loopback(urlsplit(url).hostname or "") and _loopback(request.remote_addr or "")


#: the flash category naming the hand a page form just recorded (static/held-in-phone.js reads it)
RECORDED = "recorded"


def _recorded_hand() -> str | None:
    numbers = get_flashed_messages(category_filter=[RECORDED])
    return numbers[-1] if numbers else None


def table_page(table: LedgerTable, token: str | None, form=None, errors=(), status=200, form_key=None, **extra):
    """The table page: read-only without a token, the edit page with one."""
    before = _query_int("before")  # a page of older hands: the hands before hand N
    ctx = ledger_view(table, before)
    view_url = url_for("tables.view", table_id=table.id, _external=True)
    season_url = url_for("circles.now", circle=table.circle_id, _external=True)  # the one QR for the season
    ctx.update(can_edit=token is not None, form=form, errors=list(errors),
               live_url=_live_url(table, token is not None, before, ctx["last_number"]), view_url=view_url,
               season_url=season_url, rules_shown=rules_shown(table), qr=qr_svg(season_url),
               names=table.names_of(table.seating()),
               undo_form=VersionForm() if token else None, picker=picker(ctx["game"], table),
               created=bool(request.args.get("new")), rotated=bool(request.args.get("rotated")),
               seat_range=seat_limits(table), link_only_here=only_this_machine(view_url),
               form_key=form_key or new_form_key(), evenings=evenings_around(table),
               recorded_hand=_recorded_hand(), **extra)
    if token:
        ctx["edit_url"] = edit_link(table.id, token)
        ctx["phone_settle"] = phone_settle(table, ctx)
        ctx.setdefault("rules_form", rules_form_of(table))
    resp = make_response(render_template("tables/table.html", **ctx), status)
    if token:
        resp.headers["Cache-Control"] = "private, no-store"
    return resp


def unchanged(table_id: str):
    """The cheap answer to a poll: 204 (htmx keeps what it shows) when the
    version the page holds is still current, without loading the table."""
    version = table_version(table_id)
    if version is None:
        raise not_found(table_id)
    if _query_int("v") == version:
        return "", 204
    return None


def _new_only(table: LedgerTable) -> list[int] | None:
    """The hands a poll sends: when the page (at version ``v``, last hand ``n``) only lacks hands added
    after its last one, those; else None (a hand it shows changed or went: it gets its hands again)."""
    since, shown_last = _query_int("v"), _query_int("n")
    if since is None or not shown_last or table.reset_version > since:
        return None
    changed = changed_since(table.id, since)
    return changed if all(number > shown_last for number in changed) else None


def live_fragment(table: LedgerTable, editing: bool, following: str | None = None):
    """What a poll swaps in; ``following``: the next evening, which the read-only page links to."""
    only = _new_only(table)
    ctx = ledger_view(table, only=only)
    ctx.update(can_edit=editing, following=following, live_url=_live_url(table, editing, None, ctx["last_number"]),
               undo_form=VersionForm() if editing else None, names=table.names_of(table.seating()))
    hands = "tables/_hands.html" if ctx["only"] is None else "tables/_new_hands.html"
    resp = make_response(render_template("tables/_live.html", **ctx)
                         + render_template("tables/_chart.html", oob=True, **ctx)
                         + render_template(hands, oob=True, **ctx))
    resp.headers["Cache-Control"] = "no-cache"
    return resp
