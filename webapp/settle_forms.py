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


BUILDERS = {
    "paodekuai": _paodekuai_class,
}


def players_for(slug: str, rules, args=None) -> int:
    """How many seats a settle form shows for these (resolved) rules."""
    if slug == "paodekuai":
        return 3 if rules.preset == "paodekuai48" else 4
    return 4


def has_settle_form(slug: str) -> bool:
    return slug in BUILDERS


def settle_form(slug: str, players: int, formdata=None, **kwargs) -> SettleForm:
    cls = BUILDERS[slug](players)
    return cls(formdata=formdata, **kwargs)
