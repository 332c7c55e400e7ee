"""What every game page shares: the tab bar, the card picker's configuration, partial-or-full responses."""
from __future__ import annotations

import json

from flask import render_template, request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from scoring.cards import BIG, LITTLE, RANK_NAMES, SUITS
from scoring.i18n import render, t

from .extensions import htmx
from .i18n import current_lang

TAB_NAMES = {"rules": _l("规则"), "check": _l("检查"), "hint": _l("提示"), "settle": _l("结算"),
             "trick": _l("谁赢这墩"), "bidding": _l("叫分"), "rounds": _l("记圈")}
TAB_ENDPOINTS = {"rounds": "q783_tracker.rounds"}


def tabs_for(game):
    """(endpoint, label) for each tab of the game, in its own order."""
    return [(TAB_ENDPOINTS.get(tab, f"pages.{tab}"), TAB_NAMES[tab]) for tab in game.tabs]


def picker_config(game, rules) -> str:
    """What the card picker offers for this game and these rules (JSON)."""
    deck = game.deck(rules)
    distinct = set(deck.all_cards())
    suits = [s.symbol for s in SUITS if any(c.suit == s for c in distinct)]
    ranks = [RANK_NAMES[r] for r in (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2)
             if any(c.rank == r for c in distinct)]
    jokers = [str(j) for j in (BIG, LITTLE) if j in distinct]
    return json.dumps({"suits": suits, "ranks": ranks, "jokers": jokers, "bare": bool(game.bare_ranks)},
                      ensure_ascii=False)


def page(game, tab: str, template: str, **ctx):
    ctx.update(game=game, tab=tab if "." in tab else f"pages.{tab}", tabs=tabs_for(game))
    if htmx and request.method == "POST":
        return render_template(template, partial=True, **ctx)
    return render_template(template, partial=False, **ctx)


def render_csrf_error():
    return gettext("表单已失效，请刷新页面后再提交。")


