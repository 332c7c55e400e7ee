"""The engine's exception family.

Every error carries a stable ``code`` (for API clients), the ``field`` of the
input it is about (a path such as ``bombs[1].lines``), and a bilingual
:class:`~scoring.i18n.Text` message that quotes what was wrong and says what
would be valid. An error is never changed after it is raised: :meth:`at` and
:meth:`replaced` make a new one. Which HTTP status an error answers with is
the web layer's business (``webapp/errors.py``).
"""
from __future__ import annotations

from typing import Sequence

from .i18n import Text


class PaijuError(ValueError):
    """Base class: bad input to the engine."""

    default_code = "invalid_input"

    def __init__(self, message: Text, *, field: str | None = None, code: str | None = None):
        super().__init__(message.render("en"))
        self.message = message
        self.field = field
        self.code = code or self.default_code

    def at(self, field: str) -> "PaijuError":
        """The same error about another input field: a new error, this one is left as raised."""
        if self.field is not None and self.field != "cards":
            return self
        return self.replaced(field=field)

    def replaced(self, **changes) -> "PaijuError":
        """A copy with some attributes changed (``message``, ``field``, ``code``)."""
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__, **changes)
        new.args = (new.message.render("en"),)
        return new


class InvalidNotation(PaijuError):
    """Card text that cannot be read (malformed), or card text the notation reads that breaks a rule of the game:
    no cards where cards are needed, more copies than the pack holds, a card its pack does not have, a rank
    without the suit this game needs (the codes in :attr:`RULE_CODES`)."""

    default_code = "invalid_cards"
    RULE_CODES = frozenset({"empty_cards", "too_many_copies", "card_not_in_deck", "suit_required"})

    @property
    def malformed(self) -> bool:
        """Whether the text itself is not card text (the API answers 400; otherwise 422)."""
        return self.code not in self.RULE_CODES


class InvalidInput(PaijuError):
    """Well-formed input that breaks a rule of the game's input."""

    default_code = "invalid_input"


class MalformedInput(PaijuError):
    """A missing field, a wrong JSON type, an unknown option."""

    default_code = "malformed_input"


class AmbiguousPlay(PaijuError):
    """Cards that need more information (a suit, a reading) to be decided."""

    default_code = "ambiguous_play"


class UnknownAction(PaijuError):
    """A game has no such action (the API answers 404)."""

    default_code = "not_found"


class InputErrors(PaijuError):
    """Every problem of one request's input, in the order of the fields.

    It reads as its first problem (``code``, ``field``, ``message``) so that a
    client that knows one error per answer still understands it; ``errors``
    holds them all.
    """

    def __init__(self, errors: Sequence[PaijuError]):
        errors = tuple(e for err in errors for e in (err.errors if isinstance(err, InputErrors) else (err,)))
        first = errors[0]
        super().__init__(first.message, field=first.field, code=first.code)
        self.errors = errors

    @property
    def malformed(self) -> bool:
        return any(isinstance(e, MalformedInput) or (isinstance(e, InvalidNotation) and e.malformed)
                   for e in self.errors)
