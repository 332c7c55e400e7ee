"""House-rule options and presets.

A game declares its options once (:class:`Option`) and its named presets;
:meth:`RuleSet.resolve` turns the API's ``rules`` object (``{"preset": NAME,
OPTION: VALUE, …}``) into a frozen :class:`Rules` mapping, with clear errors
for unknown names and values out of range. Defaults come from the preset,
then explicit options override them.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType
from typing import Any

from .errors import InvalidInput, MalformedInput
from .i18n import Text, join, t
from .inputs import shown, strict_int

class Choice(StrEnum):
    """The named values of one option (``class Scoring(Choice): PATTERN = "pattern"``).

    A game compares ``rules.scoring is Scoring.PATTERN``: a misspelt member fails where the code is read, not at
    a table. Members are their text too, so the API, the pages and stored hands see the same strings as before.
    """


_TRUE = {"on", "true", "yes", "1", "y"}
_FALSE = {"off", "false", "no", "0", "n", ""}
#: the words a switch reads (any case, spaces around them), for the API's schema of a switch
SWITCH_WORDS = tuple(sorted(_TRUE | _FALSE))


@dataclass(frozen=True)
class Option:
    """One house rule. ``values`` lists allowed values (bools for switches)."""

    name: str
    default: Any
    values: tuple
    label: Text
    help: Text | None = None
    reading: bool = False  # the default is a *(reading)* of the seed
    #: how each value reads in words on a page (values not listed read as themselves)
    value_labels: Mapping[Any, Text] = field(default_factory=dict)
    #: the presets this rule can apply to (empty: every preset); elsewhere only its default is accepted
    only_presets: tuple[str, ...] = ()

    def __post_init__(self):
        if self.default not in self.values:  # a declaration error: fail at import
            raise ValueError(f"option {self.name}: default {self.default!r} is not among its values")
        unknown = [v for v in self.value_labels if v not in self.values]
        if unknown:
            raise ValueError(f"option {self.name}: words for values it does not have: {unknown!r}")

    def canonical(self, value: Any) -> Any:
        """The declared value equal to ``value`` (a :class:`Choice` member for its text)."""
        return self.values[self.values.index(value)]

    def applies_to(self, preset: str) -> bool:
        return not self.only_presets or preset in self.only_presets

    def value_label(self, value: Any) -> Text:
        if self.is_switch:
            return t("开", "on") if value else t("关", "off")
        if value in self.value_labels:
            return self.value_labels[value]
        return t("{v}", "{v}", v=str(value))

    @cached_property  # asked for every option of every rules read: a settle re-reading a table's rules
    def is_switch(self) -> bool:
        return set(self.values) == {False, True}

    @cached_property
    def is_int(self) -> bool:
        return all(isinstance(v, int) and not isinstance(v, bool) for v in self.values)

    def coerce(self, value: Any) -> Any:
        """Accept what a form or a JSON client may send; raise on anything else."""
        if self.is_switch:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
        elif self.is_int:
            number = strict_int(value)
            if number is not None and number in self.values:
                return number
        elif isinstance(value, str) and value in self.values:
            return self.canonical(value)
        raise MalformedInput(
            t("规则「{name}」不能取「{value}」，可选：{valid}",
              "rule “{name}” cannot be “{value}”; allowed: {valid}",
              name=self.label, value=shown(value), valid=self.values_text()),
            field=f"rules.{self.name}", code="invalid_option")

    def values_text(self) -> str:
        if self.is_switch:
            return "on / off"
        if self.is_int and len(self.values) > 6:
            return f"{min(self.values)}–{max(self.values)}"
        return " / ".join(str(v) for v in self.values)

    def values_words(self) -> Text:
        """The allowed values as a page lists them, in words (a long number range as lo–hi)."""
        if self.is_int and len(self.values) > 6:
            return t("{lo}–{hi}", "{lo}–{hi}", lo=min(self.values), hi=max(self.values))
        return join([self.value_label(v) for v in self.values], "；", "; ")

    def describe(self) -> dict:
        """The JSON shape of ``GET /api/v1/games``."""
        values = list(self.values)
        return {"name": self.name, "default": self.default, "values": values,
                "label": self.label, "help": self.help, "reading": self.reading}


@dataclass(frozen=True)
class Preset:
    name: str
    label: Text
    settings: Mapping[str, Any] = field(default_factory=dict)
    help: Text | None = None
    reading: bool = False  # the preset is a *(reading)* of the seed


class Rules(Mapping[str, Any]):
    """Resolved house rules: a read-only mapping with attribute access."""

    def __init__(self, preset: str, values: Mapping[str, Any]):
        self._values = MappingProxyType(dict(values, preset=preset))
        # each setting also an attribute of its own: ``rules.stake`` without a failed look-up first (a
        # settle reads about 10); a name the class itself uses (``key``, ``get``) stays the class's
        vars(self).update((name, value) for name, value in values.items() if not hasattr(type(self), name))
        self.preset = preset

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __getattr__(self, key: str) -> Any:
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(key) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Rules({dict(self._values)!r})"

    def as_dict(self) -> dict:
        return dict(self._values)

    @cached_property
    def key(self) -> tuple:
        """The rules as a sorted tuple of (name, value): equal rules, equal keys (specs are cached by it)."""
        return tuple(sorted(self._values.items()))


@dataclass(frozen=True)
class RuleSet:
    options: tuple[Option, ...]
    presets: tuple[Preset, ...]

    def __post_init__(self):
        """A preset that sets an option this rule set lacks, or to a value the option lacks, fails at import."""
        for preset in self.presets:
            for name, value in preset.settings.items():
                self.option(name).canonical(value)

    @property
    def default_preset(self) -> str:
        return self.presets[0].name

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def preset(self, name: str) -> Preset:
        for p in self.presets:
            if p.name == name:
                return p
        raise KeyError(name)

    @cached_property
    def _of_preset(self) -> dict[str, Rules]:
        """Each preset's rules with no setting changed, made when first asked for (Rules are read-only)."""
        return {}

    def resolve(self, rules: Any = None) -> Rules:
        if rules is None:
            rules = {}
        if isinstance(rules, Rules):
            return rules
        if type(rules) is dict and rules.keys() <= {"preset"}:  # a preset alone: resolved once
            name = rules.get("preset") or self.default_preset
            if type(name) is str and name in self._of_preset:
                return self._of_preset[name]
            if type(name) is str and len(self._of_preset) < len(self.presets):
                resolved = self._resolve(rules)
                self._of_preset[name] = resolved
                return resolved
        return self._resolve(rules)

    def _resolve(self, rules: Any) -> Rules:
        if not isinstance(rules, Mapping):
            raise MalformedInput(t("rules 应为一个对象", "rules must be an object"), field="rules")
        given = rules.get("preset")
        preset_name = self.default_preset if given is None or given == "" else given
        names = [p.name for p in self.presets]
        if not isinstance(preset_name, str) or preset_name not in names:  # {} or 0 is no preset name either
            raise MalformedInput(
                t("没有「{p}」这个预设，可选：{valid}", "there is no preset “{p}”; allowed: {valid}",
                  p=shown(preset_name), valid=" / ".join(names)),
                field="rules.preset", code="invalid_option")
        preset = self.preset(preset_name)
        values = {o.name: o.default for o in self.options}
        values.update((name, self.option(name).canonical(value)) for name, value in preset.settings.items())
        known = {o.name for o in self.options}
        for key, value in rules.items():
            if key == "preset":
                continue
            if key not in known:
                raise MalformedInput(
                    t("没有「{k}」这条规则，可选：{valid}", "there is no rule “{k}”; allowed: {valid}",
                      k=shown(key), valid=", ".join(sorted(known)) or "—"),
                    field=f"rules.{key}", code="invalid_option")
            if value is None:
                continue
            values[key] = self.option(key).coerce(value)
        self.check_fits(preset.name, values)
        return Rules(preset.name, values)

    def check_fits(self, preset_name: str, values: Mapping[str, Any]) -> None:
        """A rule set away from its default under a preset it cannot apply to is refused, never ignored."""
        for o in self.options:
            if values[o.name] != o.default and not o.applies_to(preset_name):
                raise InvalidInput(
                    t("规则「{name}」不适用于预设「{p}」（只用于：{valid}）",
                      "rule “{name}” does not apply to the preset “{p}” (only to: {valid})",
                      name=o.label, p=self.preset(preset_name).label,
                      valid=join([self.preset(n).label for n in o.only_presets], " / ", " / ")),
                    field=f"rules.{o.name}", code="option_not_for_preset")

    def changes(self, before: Rules, after: Rules) -> list[Text]:
        """What differs in ``after`` from ``before``, each as the players name it (「炸弹分 10」): the preset
        first, then each option whose value changed, in the order the game declares them."""
        words = []
        if after.preset != before.preset:
            words.append(t("预设 {v}", "preset {v}", v=self.preset(after.preset).label))
        words += [t("{o} {v}", "{o} {v}", o=o.label, v=o.value_label(after[o.name]))
                  for o in self.options if after[o.name] != before[o.name]]
        return words

    def set_apart(self, rules: Any = None) -> Text:
        """The rules a table plays in a player's words: its preset, then only the options it sets away from that
        preset's own (「跑得快 52张（4人×13张），炸弹分 10」); a table at its preset's rules reads as the preset alone."""
        played = self.resolve(rules)
        return join([self.preset(played.preset).label,
                     *self.changes(self.resolve({"preset": played.preset}), played)])

    def describe(self) -> dict:
        return {
            "presets": [p.name for p in self.presets],
            "preset_details": [{"name": p.name, "label": p.label, "help": p.help,
                                "settings": dict(p.settings), "reading": p.reading} for p in self.presets],
            "options": [o.describe() for o in self.options],
        }


def switch(name: str, label: Text, help: Text | None = None, default: bool = False, reading: bool = False,
           only_presets: tuple[str, ...] = ()) -> Option:
    return Option(name, default, (False, True), label, help, reading, only_presets=only_presets)
