"""The engine's exception hierarchy.

Every error carries a stable ``code`` (for API clients), the ``field`` of the
input it is about, and a bilingual :class:`~scoring.i18n.Text` message that
quotes what was wrong and says what would be valid.
"""
from __future__ import annotations

from .i18n import Text


class PaijuError(ValueError):
    """Base class: bad input to the engine. ``status`` is the HTTP status."""

    status = 400
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

    def with_field(self, field: str) -> "PaijuError":
        """Return the same error attributed to another input field."""
        if self.field is None or self.field == "cards":
            self.field = field
        return self


class InvalidNotation(PaijuError):
    """Card text that cannot be read, or cards the deck cannot hold."""

    default_code = "invalid_cards"


class InvalidInput(PaijuError):
    """Well-formed input that breaks a rule of the game's input (422)."""

    status = 422
    default_code = "invalid_input"


class MalformedInput(PaijuError):
    """A missing field, a wrong JSON type, an unknown option (400)."""

    default_code = "malformed_input"


class IllegalPlay(PaijuError):
    """A play that breaks a rule (raised only where a verdict is no option)."""

    status = 422
    default_code = "illegal_play"


class AmbiguousPlay(PaijuError):
    """Cards that need more information (a suit, a reading) to be decided."""

    status = 422
    default_code = "ambiguous_play"
