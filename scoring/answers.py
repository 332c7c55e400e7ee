"""What an action answers, declared once, as its input is (``scoring/inputs/``): each field's name, its kind and,
for a field a player reads, its words.

What an action returns is a typed value holding these fields (``scoring/results.py``). From the one declaration
come the OpenAPI answer schemas (``webapp/openapi.py``: closed, a field not declared is
never answered) and the result view (``scoring/result_view.py``) the server's pages and the phone show. A game
declares the fields its settle answer adds to ``deltas`` and ``steps`` (``Game.settle_answer``); each core
declares what its other actions answer (``ActionTable.answers``).

A reading of cards (``reading``, ``readings``) and any other object (``object``) declares its fields too
(``parts``): every reading has :data:`READING`'s, a core adds what all its readings carry
(``ActionTable.reading``) and a game what its patterns add (``Game.reading_fields``: 双扣's ``lines``, Q783's
``pure`` …), so no object an action answers has a field that is not declared.

How a player reads a field: ``line`` (a line under the deltas, ``{v}`` its value; left out when null),
``column`` (a column of the deltas table, one value per seat) or ``notice`` (said when the value is true). A field
with none of them is the API's only (双扣's ``outcome``: its words are ``outcome_name``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .i18n import Text, t

INTEGER = {"type": "integer"}
STRING = {"type": "string"}
#: the JSON Schema of each kind of answer field (``reading``, ``readings`` and ``object``: of their ``parts``)
KINDS: dict[str, dict] = {
    "integer": INTEGER,
    "boolean": {"type": "boolean"},
    "text": STRING,
    "integers": {"type": "array", "items": INTEGER},
    "texts": {"type": "array", "items": STRING},
    "seat_values": {"type": "array", "items": {"type": "object", "properties": {"seat": INTEGER, "value": INTEGER},
                                               "required": ["seat", "value"], "additionalProperties": False}},
}


@dataclass(frozen=True)
class AnswerField:
    """One field of an answer: ``kind`` (a key of :data:`KINDS`, ``choice`` among ``values``, or an object of
    declared ``parts``: ``reading``, ``readings``, ``object``), whether it may be null or left out, and how a
    player reads it (see the module's words)."""

    name: str
    kind: str
    values: tuple = ()
    nullable: bool = False
    required: bool = True
    line: Text | None = None
    column: Text | None = None
    notice: Text | None = None
    parts: Answer | None = None

    def __post_init__(self):
        if self.kind == "object" and self.parts is None:
            raise ValueError(f"{self.name}: an object answer field declares its parts")

    def json_schema(self) -> dict:
        if self.kind == "choice":
            schema: dict = {"enum": list(self.values)}
        elif self.kind in OBJECTS:
            closed = (self.parts or READING).json_schema()
            schema = {"type": "array", "items": closed} if self.kind == "readings" else closed
        else:
            schema = dict(KINDS[self.kind])
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

    def reading_as(self, reading: "Answer") -> "Answer":
        """This answer with its readings of cards declared as ``reading`` (a core's and a game's fields)."""
        return Answer(tuple(replace(f, parts=reading) if f.kind in ("reading", "readings") else f
                            for f in self.fields))

    def shown(self, how: str) -> list[AnswerField]:
        """The fields a player reads as ``how`` (``line``, ``column`` or ``notice``)."""
        return [f for f in self.fields if getattr(f, how) is not None]


def answer(*fields: AnswerField) -> Answer:
    return Answer(tuple(fields))


#: the kinds of field that are an object (or an array of them) of declared ``parts``
OBJECTS = ("reading", "readings", "object")
#: what every reading of cards has: its kind, its words, its cards (canonical)
READING = answer(field("kind", "text"), field("label", "text"), field("cards", "text"))
#: the words of a multiplier, in the games that double a hand's score
MULTIPLIER = t("倍数 ×{v}", "multiplier ×{v}")
#: what every settle answers; a game's ``settle_answer`` adds its own fields
SETTLED = answer(field("deltas", "integers"), field("steps", "texts"))
