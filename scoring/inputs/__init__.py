"""Declared inputs: a game says once what a settle input holds.

A :class:`Schema` is a tuple of fields (a seat, seats in order, a number with
its range and step, a switch, cards, a choice, one number per seat, repeated
rows). From that one declaration come

* the API's checks: :meth:`Schema.read` turns the JSON-shaped payload into
  :class:`Values`, collecting **every** error of the request at once
  (:class:`~scoring.errors.InputErrors`), each with its path
  (``bombs[1].lines``) and a message that names the field by its label;
* the forms (``webapp/schema_forms.py`` builds them field by field, rows
  growing as needed, and maps form data to the payload and back);
* the words of a hand (:meth:`Schema.words`: 庄家 老王，叫分 100 …) for the
  ledger's hand cards and its CSV columns.

Numbers are strict: a JSON integer, or text of ASCII digits with one optional
sign. Text must be valid Unicode without control characters. A value quoted
back in a message is shown escaped (:func:`shown`), never raw.

The package: ``base`` (context, values, problems, the :class:`Field` every kind
extends), ``fields`` (the kinds), ``schema`` (:class:`Schema`), ``reading``
(one value read outside a schema, its error raised at once).
"""
from __future__ import annotations

from ..i18n import shown  # a quoted value, escaped (re-exported: callers quote values with it)
from .base import (INT_TEXT, MAX_TEXT, PY_SPACE, int_text_among, words_pattern, MISSING, Bound, Context, Field, Problems, Values, bound, in_row,
                   int_json_schema, item_label, not_a_multiple, not_integer, numbered, range_text, seat_json_schema,
                   static, strict_int)
from .fields import (PLAIN_TEXT, CardsField, ChoiceField, IntField, PerSeatField, RowsField, SeatField, SeatOrderField,
                     SwitchField, read_seat, read_text)
from .reading import (CardTextsField, ListField, NamedField, WholeNumberField, as_int, as_list, get_field, get_int,
                      get_list, missing, out_of_range)
from .schema import Schema, cards_text, field_words, fields_named, one_problem

__all__ = ["shown", "MAX_TEXT", "PLAIN_TEXT", "PY_SPACE", "int_text_among", "words_pattern", "MISSING", "Context", "Values", "Problems", "numbered", "item_label", "in_row",
           "Field", "not_integer", "strict_int", "range_text", "not_a_multiple", "Bound", "bound", "INT_TEXT",
           "static", "int_json_schema", "seat_json_schema", "IntField", "SeatField", "read_seat", "SwitchField",
           "read_text", "CardsField", "ChoiceField", "SeatOrderField", "PerSeatField", "RowsField", "Schema",
           "one_problem", "fields_named", "cards_text", "field_words", "get_field", "as_int", "out_of_range",
           "get_int", "get_list", "missing", "as_list", "NamedField", "WholeNumberField", "ListField",
           "CardTextsField"]
