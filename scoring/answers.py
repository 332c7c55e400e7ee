"""What an action answers, declared once, as its input is (``scoring/inputs/``): each field's name, its kind and,
for a field a player reads, its words.

From the one declaration come the OpenAPI answer schemas (``webapp/openapi.py``: closed, a field not declared is
never answered) and the result view (``scoring/result_view.py``) the server's pages and the phone show. A game
declares the fields its settle answer adds to ``deltas`` and ``steps`` (``Game.settle_answer``); each core
declares what its other actions answer (``ActionTable.answers``).

How a player reads a field: ``line`` (a line under the deltas, ``{v}`` its value; left out when null),
``column`` (a column of the deltas table, one value per seat) or ``notice`` (said when the value is true). A field
with none of them is the API's only (双扣's ``outcome``: its words are ``outcome_name``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .i18n import Text, t

INTEGER = {"type": "integer"}
STRING = {"type": "string"}
#: a reading of cards: what every reading has; a pattern adds fields of its own (双扣's ``lines``, Q783's
#: ``pure``, a trick game's ``units`` …), which the document leaves open
READING = {"type": "object", "properties": {"kind": STRING, "label": STRING, "cards": STRING},
           "required": ["kind", "label", "cards"]}
#: the JSON Schema of each kind of answer field
KINDS: dict[str, dict] = {
    "integer": INTEGER,
    "boolean": {"type": "boolean"},
    "text": STRING,
    "integers": {"type": "array", "items": INTEGER},
    "texts": {"type": "array", "items": STRING},
    "reading": READING,
    "readings": {"type": "array", "items": READING},
    "seat_values": {"type": "array", "items": {"type": "object", "properties": {"seat": INTEGER, "value": INTEGER},
                                               "required": ["seat", "value"], "additionalProperties": False}},
}


@dataclass(frozen=True)
class AnswerField:
    """One field of an answer: ``kind`` (a key of :data:`KINDS`, or ``choice`` among ``values``), whether it may
    be null or left out, and how a player reads it (see the module's words)."""

    name: str
    kind: str
    values: tuple = ()
    nullable: bool = False
    required: bool = True
    line: Text | None = None
    column: Text | None = None
    notice: Text | None = None

    def json_schema(self) -> dict:
        schema = {"enum": list(self.values)} if self.kind == "choice" else dict(KINDS[self.kind])
        return {"anyOf": [schema, {"type": "null"}]} if self.nullable else schema


def field(name: str, kind: str, **how: Any) -> AnswerField:
    return AnswerField(name, kind, **how)


@dataclass(frozen=True)
class Answer:
    """The fields of one action's answer, in the order a player reads them."""

    fields: tuple[AnswerField, ...] = ()

    def __add__(self, other: "Answer") -> "Answer":
        return Answer(self.fields + other.fields)

    def json_schema(self) -> dict:
        """The answer as JSON Schema: every field declared, none other."""
        return {"type": "object", "properties": {f.name: f.json_schema() for f in self.fields},
                "required": [f.name for f in self.fields if f.required], "additionalProperties": False}

    def shown(self, how: str) -> list[AnswerField]:
        """The fields a player reads as ``how`` (``line``, ``column`` or ``notice``)."""
        return [f for f in self.fields if getattr(f, how) is not None]


def answer(*fields: AnswerField) -> Answer:
    return Answer(tuple(fields))


#: the words of a multiplier, in the games that double a hand's score
MULTIPLIER = t("倍数 ×{v}", "multiplier ×{v}")
#: what every settle answers; a game's ``settle_answer`` adds its own fields
SETTLED = answer(field("deltas", "integers"), field("steps", "texts"))
