"""Settle forms, one per game; shared by the settle tab and the table ledger.

``settle_form(slug, players, formdata)`` returns a FlaskForm whose
``to_payload()`` is the game's settle input (without ``rules``) and whose
``template`` renders its fields (``templates/settle/_fields_<slug>.html``).
"""
from __future__ import annotations

from functools import lru_cache

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import Optional as OptionalV

MAX_SEATS = 6


class SettleForm(FlaskForm):
    slug = ""
    players = 4

    @property
    def template(self) -> str:
        return f"settle/_fields_{self.slug}.html"

    def seat_fields(self, prefix: str):
        return [self[f"{prefix}_{i}"] for i in range(self.players)]

    def names(self) -> list[str]:
        out = []
        for i in range(self.players):
            field = self._fields.get(f"name_{i}")
            out.append((field.data or "").strip() if field is not None else "")
        return out

    def to_payload(self) -> dict:  # pragma: no cover - per game
        raise NotImplementedError


def _int_or_raw(field):
    """What was typed, stripped (the engine reads the number and quotes bad text back), or None."""
    raw = field.data
    if raw is None:
        return None
    raw = str(raw).strip()
    return raw or None


class PaodekuaiSettle(SettleForm):
    slug = "paodekuai"

    def to_payload(self):
        winner = _int_or_raw(self.winner)
        left = []
        for i in range(self.players):
            value = _int_or_raw(self[f"cards_left_{i}"])
            if value is None and str(winner) == str(i):
                value = 0
            left.append(value)
        return {"winner": winner, "cards_left": left}


def _names(players):
    return {f"name_{i}": StringField(_l("名字"), validators=[OptionalV()]) for i in range(players)}


def _seat_choice():
    """A seat picked with radio buttons (rendered by the template); the engine checks the value."""
    return StringField(_l("座位"), validators=[OptionalV()])


@lru_cache(maxsize=None)
def _paodekuai_class(players: int):
    attrs = {"players": players, "winner": _seat_choice(), **_names(players)}
    for i in range(players):
        attrs[f"cards_left_{i}"] = StringField(_l("剩余张数"), validators=[OptionalV()])
    return type(f"PaodekuaiSettle{players}", (PaodekuaiSettle,), attrs)


def _text(label=""):
    return StringField(label, validators=[OptionalV()])


def _places(self, prefix="place"):
    order = []
    for i in range(self.players):
        value = _int_or_raw(self[f"{prefix}_{i}"])
        if value is not None:
            order.append(value)
    return order


class ShuangkouSettle(SettleForm):
    slug = "shuangkou"
    bomb_rows = 8

    def to_payload(self):
        bombs = []
        for j in range(self.bomb_rows):
            seat = _int_or_raw(self[f"bomb_seat_{j}"])
            cards = _int_or_raw(self[f"bomb_cards_{j}"])
            lines = _int_or_raw(self[f"bomb_lines_{j}"])
            if seat is None and cards is None and lines is None:
                continue
            bomb = {"seat": seat}
            if cards is not None:
                bomb["cards"] = cards
            else:
                bomb["lines"] = lines
            bombs.append(bomb)
        return {"finish_order": _places(self), "bombs": bombs}


@lru_cache(maxsize=None)
def _shuangkou_class(players: int = 4):
    attrs = {"players": 4, **_names(4)}
    for i in range(4):
        attrs[f"place_{i}"] = _text()
    for j in range(ShuangkouSettle.bomb_rows):
        attrs[f"bomb_seat_{j}"] = _text()
        attrs[f"bomb_cards_{j}"] = _text()
        attrs[f"bomb_lines_{j}"] = _text()
    return type("ShuangkouSettle4", (ShuangkouSettle,), attrs)


class Q783Settle(SettleForm):
    slug = "q783"
    round_rows = 12

    def to_payload(self):
        rounds = []
        for j in range(self.round_rows):
            winner = _int_or_raw(self[f"round_winner_{j}"])
            cards = _int_or_raw(self[f"round_cards_{j}"])
            count = _int_or_raw(self[f"round_count_{j}"])
            if winner is None and cards is None and count is None:
                continue
            r = {"winner": winner}
            if cards is not None:
                r["cards"] = cards
            if count is not None:
                r["count"] = count
            rounds.append(r)
        banks = [_int_or_raw(self[f"bank_{i}"]) for i in range(self.players)]
        return {"players": self.players, "teams": bool(self.teams.data),
                "banks": banks if any(b is not None for b in banks) else None,
                "rounds": rounds, "finish_order": _places(self)}


@lru_cache(maxsize=None)
def _q783_class(players: int):
    from wtforms import BooleanField
    attrs = {"players": players, "teams": BooleanField(_l("组队")), **_names(players)}
    for i in range(players):
        attrs[f"place_{i}"] = _text()
        attrs[f"bank_{i}"] = _text()
    for j in range(Q783Settle.round_rows):
        attrs[f"round_winner_{j}"] = _text()
        attrs[f"round_cards_{j}"] = _text()
        attrs[f"round_count_{j}"] = _text()
    return type(f"Q783Settle{players}", (Q783Settle,), attrs)


class HongwuSettle(SettleForm):
    slug = "hongwu"
    five_rows = 3

    def to_payload(self):
        fives = []
        for j in range(self.five_rows):
            owner = _int_or_raw(self[f"five_owner_{j}"])
            by = _int_or_raw(self[f"five_by_{j}"])
            if owner is None and by is None:
                continue
            fives.append({"owner": owner, "captured_by": by})
        return {"declarer": _int_or_raw(self.declarer), "bid": _int_or_raw(self.bid),
                "declarer_points": _int_or_raw(self.declarer_points),
                "bottom_points": _int_or_raw(self.bottom_points) or 0,
                "declarer_took_bottom": bool(self.declarer_took_bottom.data), "red_fives": fives}


@lru_cache(maxsize=None)
def _hongwu_class(players: int = 4):
    from wtforms import BooleanField
    attrs = {"players": 4, **_names(4), "declarer": _text(_l("庄家")), "bid": _text(_l("叫分")),
             "declarer_points": _text(_l("庄家抓分")), "bottom_points": _text(_l("底牌分")),
             "declarer_took_bottom": BooleanField(_l("庄家赢了最后一墩（抠底）"))}
    for j in range(HongwuSettle.five_rows):
        attrs[f"five_owner_{j}"] = _text()
        attrs[f"five_by_{j}"] = _text()
    return type("HongwuSettle4", (HongwuSettle,), attrs)


class ErqiwangSettle(SettleForm):
    slug = "erqiwang"
    cg_rows = 4
    counts = ("jokers", "trump7_pairs", "off7_pairs", "trump2_pairs", "off2_pairs")

    def to_payload(self):
        rows = []
        for j in range(self.cg_rows):
            seat = _int_or_raw(self[f"cg_seat_{j}"])
            cards = _int_or_raw(self[f"cg_cards_{j}"])
            counts = {k: _int_or_raw(self[f"cg_{k}_{j}"]) for k in self.counts}
            if seat is None and cards is None and all(v is None for v in counts.values()):
                continue
            if cards is not None:
                rows.append({"seat": seat, "cards": cards, "trump": self.trump.data or None})
            else:
                rows.append({"seat": seat, **{k: (v if v is not None else 0) for k, v in counts.items()}})
        return {"declarer": _int_or_raw(self.declarer), "bid": _int_or_raw(self.bid),
                "defender_points": _int_or_raw(self.defender_points), "chongguan": rows,
                "surrender": bool(self.surrender.data)}


@lru_cache(maxsize=None)
def _erqiwang_class(players: int = 4):
    from wtforms import BooleanField, SelectField
    attrs = {"players": 4, **_names(4), "declarer": _text(_l("庄家")), "bid": _text(_l("叫分")),
             "defender_points": _text(_l("闲家抓分")), "surrender": BooleanField(_l("庄家投降")),
             "trump": SelectField(_l("主牌花色"), choices=[("♠", "♠"), ("♥", "♥"), ("♣", "♣"), ("♦", "♦")],
                                  default="♠")}
    for j in range(ErqiwangSettle.cg_rows):
        attrs[f"cg_seat_{j}"] = _text()
        attrs[f"cg_cards_{j}"] = _text()
        for k in ErqiwangSettle.counts:
            attrs[f"cg_{k}_{j}"] = _text()
    return type("ErqiwangSettle4", (ErqiwangSettle,), attrs)


BUILDERS = {
    "paodekuai": _paodekuai_class,
    "shuangkou": _shuangkou_class,
    "q783": _q783_class,
    "hongwu": _hongwu_class,
    "erqiwang": _erqiwang_class,
}


def players_for(slug: str, rules, args=None) -> int:
    """How many seats a settle form shows for these (resolved) rules."""
    from scoring.games import get_game
    lo, hi = get_game(slug).seat_range(rules)
    if lo == hi:
        return lo
    raw = (args or {}).get("players") if args is not None else None
    try:
        n = int(raw)
    except (TypeError, ValueError):
        return max(lo, min(hi, 4))
    return n if lo <= n <= hi else max(lo, min(hi, 4))


def has_settle_form(slug: str) -> bool:
    return slug in BUILDERS


def settle_form(slug: str, players: int, formdata=None, **kwargs) -> SettleForm:
    """The settle form; bound to the request's form data unless ``formdata`` is given."""
    cls = BUILDERS[slug](players)
    if formdata is not None:
        kwargs["formdata"] = formdata
    return cls(**kwargs)
