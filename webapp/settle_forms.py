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


def _rows(form, n_rows: int, /, **columns: str) -> list[dict]:
    """The filled rows of a repeated part of a form: ``{key: value}`` per row (None where blank);
    ``columns`` maps payload keys to field prefixes (``seat="bomb_seat"`` reads ``bomb_seat_0`` …)."""
    out = []
    for j in range(n_rows):
        row = {key: _int_or_raw(form[f"{prefix}_{j}"]) for key, prefix in columns.items()}
        if any(v is not None for v in row.values()):
            out.append(row)
    return out


def _row_fields(attrs: dict, n_rows: int, *prefixes: str) -> None:
    for j in range(n_rows):
        for prefix in prefixes:
            attrs[f"{prefix}_{j}"] = _text()


class ShuangkouSettle(SettleForm):
    slug = "shuangkou"
    bomb_rows = 8

    def to_payload(self):
        bombs = []
        for row in _rows(self, self.bomb_rows, seat="bomb_seat", cards="bomb_cards", lines="bomb_lines"):
            if row["cards"] is not None:
                bombs.append({"seat": row["seat"], "cards": row["cards"]})
            else:
                bombs.append({"seat": row["seat"], "lines": row["lines"]})
        return {"finish_order": _places(self), "bombs": bombs}


@lru_cache(maxsize=None)
def _shuangkou_class(players: int = 4):
    attrs = {"players": 4, **_names(4)}
    for i in range(4):
        attrs[f"place_{i}"] = _text()
    _row_fields(attrs, ShuangkouSettle.bomb_rows, "bomb_seat", "bomb_cards", "bomb_lines")
    return type("ShuangkouSettle4", (ShuangkouSettle,), attrs)


class Q783Settle(SettleForm):
    slug = "q783"
    round_rows = 12

    def to_payload(self):
        rounds = [{k: v for k, v in row.items() if v is not None or k == "winner"}
                  for row in _rows(self, self.round_rows, winner="round_winner", cards="round_cards",
                                   count="round_count")]
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
    _row_fields(attrs, Q783Settle.round_rows, "round_winner", "round_cards", "round_count")
    return type(f"Q783Settle{players}", (Q783Settle,), attrs)


class HongwuSettle(SettleForm):
    slug = "hongwu"
    five_rows = 3

    def to_payload(self):
        fives = _rows(self, self.five_rows, owner="five_owner", captured_by="five_by")
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
    _row_fields(attrs, HongwuSettle.five_rows, "five_owner", "five_by")
    return type("HongwuSettle4", (HongwuSettle,), attrs)


class ErqiwangSettle(SettleForm):
    slug = "erqiwang"
    cg_rows = 4
    counts = ("jokers", "trump7_pairs", "off7_pairs", "trump2_pairs", "off2_pairs")

    def to_payload(self):
        rows = []
        for row in _rows(self, self.cg_rows, seat="cg_seat", cards="cg_cards",
                         **{k: f"cg_{k}" for k in self.counts}):
            if row["cards"] is not None:
                rows.append({"seat": row["seat"], "cards": row["cards"], "trump": self.trump.data or None})
            else:
                rows.append({"seat": row["seat"], **{k: (row[k] if row[k] is not None else 0) for k in self.counts}})
        return {"declarer": _int_or_raw(self.declarer), "bid": _int_or_raw(self.bid),
                "defender_points": _int_or_raw(self.defender_points), "chongguan": rows,
                "surrender": bool(self.surrender.data)}


@lru_cache(maxsize=None)
def _erqiwang_class(players: int = 4):
    from wtforms import BooleanField

    from .forms import trump_field
    attrs = {"players": 4, **_names(4), "declarer": _text(_l("庄家")), "bid": _text(_l("叫分")),
             "defender_points": _text(_l("闲家抓分")), "surrender": BooleanField(_l("庄家投降")),
             "trump": trump_field()}
    _row_fields(attrs, ErqiwangSettle.cg_rows, "cg_seat", "cg_cards", *(f"cg_{k}" for k in ErqiwangSettle.counts))
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
