"""WTForms forms. Each form builds the same JSON-shaped payload the API takes,
so pages and API run the same engine function (``Game.run``)."""
from __future__ import annotations

import re
from functools import wraps

from flask_wtf import FlaskForm
from jinja2 import pass_context
from wtforms import BooleanField, Form, FormField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import Optional as OptionalV

from scoring import inputs
from scoring.errors import PaijuError
from scoring.games import Game
from scoring.i18n import render, seat_number, t
from scoring.result_view import action_label

from .i18n import current_lang
from . import offline_page
from .schema_forms import LabelText, form_pairs

class CardsField(StringField):
    """A text field for cards; templates attach the card picker to it."""

    picker = True


def per_game(fn):
    """Cache a form class per game slug (Game objects hold dicts: not hashable)."""
    cache = {}

    @wraps(fn)
    def wrapper(game):
        if game.slug not in cache:
            cache[game.slug] = fn(game)
        return cache[game.slug]
    return wrapper


# ---------------------------------------------------------------------------
# House rules: one sub-form per game, built from its RuleSet
# ---------------------------------------------------------------------------

@per_game
def rules_form_class(game: Game) -> type[Form]:
    attrs = {}
    rs = game.ruleset
    attrs["preset"] = SelectField("preset", choices=[(p.name, p.name) for p in rs.presets],
                                  default=rs.default_preset, validate_choice=False)
    for opt in rs.options:
        if _typed_box(opt):
            attrs[opt.name] = IntegerField(opt.name, validators=[OptionalV()])
        else:
            choices = [("", "")] + [(_value_key(v), _value_key(v)) for v in opt.values]
            attrs[opt.name] = SelectField(opt.name, choices=choices, default="", validate_choice=False)
    attrs["game"] = game  # not a field: what rules_payload reads the posted options by
    return type(f"Rules_{game.slug}", (Form,), attrs)


def _typed_box(opt) -> bool:
    """An option of many numbers is a box to type in, any other a select."""
    return opt.is_int and len(opt.values) > 12


def rules_form_data(game: Game, rules) -> dict:
    """The rules sub-form's data for a table's rules: its preset, and each option its preset does not set so
    (the others stay 「按预设」)."""
    resolved = game.ruleset.resolve(rules)
    base = game.ruleset.resolve({"preset": resolved.preset})
    data = {"preset": resolved.preset}
    for opt in game.ruleset.options:
        value = resolved[opt.name]
        if value != base[opt.name]:
            data[opt.name] = value if _typed_box(opt) else _value_key(value)
    return data


def _value_key(v) -> str:
    if v is True:
        return "on"
    if v is False:
        return "off"
    return str(v)


def switch_preset(game: Game, rules_form: Form, posted) -> bool:
    """The player tapped "switch to preset …": select it in the rules form (True), the rest as typed."""
    name = posted.get("switch_preset") if posted is not None else None
    if name not in {p.name for p in game.ruleset.presets}:
        return False
    rules_form.preset.data = name
    return True


def preset_offer(game: Game, rules: dict, seats_given: int | None):
    """The preset to offer beside a refusal: one that plays with the seats the player gave."""
    if not seats_given:
        return None
    try:
        return game.preset_for_seats(seats_given, rules)
    except PaijuError:
        return None


def rules_payload(rules_form: Form) -> dict:
    """The house rules the sub-form holds, read as the phone reads a posted form (one reading of them)."""
    return offline_page.rules_payload(rules_form.game, offline_page.Posted(form_pairs(rules_form)))


def preset_choices(game: Game):
    return [(p.name, render(p.label, current_lang())) for p in game.ruleset.presets]


def option_choices(game: Game, name: str):
    """(value, words) for an option's select: the preset's default first, then each value in words."""
    opt = game.ruleset.option(name)
    lang = current_lang()
    default_word = "按预设" if lang == "zh" else "preset default"
    return [("", default_word)] + [(_value_key(v), render(opt.value_label(v), lang)) for v in opt.values]


def _quoted(words: str, lang: str) -> str:
    return f"「{words}」" if lang == "zh" else f"“{words}”"


@pass_context
def rule_words(ctx, game: Game, name: str, value=None, label: bool = True) -> str:
    """A house rule as a page names it, from its declaration: 「输家付分：剩牌数 × 倍数」 (never ``penalty: seed``)."""
    opt = game.ruleset.option(name)
    lang = ctx.get("lang") or current_lang()
    words = render(opt.label, lang)
    if value is not None:
        chosen = next(v for v in opt.values if _value_key(v) == _value_key(value))
        value_words = render(opt.value_label(chosen), lang)
        words = f"{words}{'：' if lang == 'zh' else ': '}{value_words}" if label else value_words
    return _quoted(words, lang)


@pass_context
def preset_words(ctx, game: Game, name: str) -> str:
    """A preset as a page names it: its label (the platform it comes from), never its code name."""
    lang = ctx.get("lang") or current_lang()
    return _quoted(render(game.ruleset.preset(name).label, lang), lang)


def make_rules_field(game: Game):
    return FormField(rules_form_class(game), label="rules", separator="-")


# ---------------------------------------------------------------------------
# Check / hint / trick / bidding forms, generated from what each action reads
# ---------------------------------------------------------------------------

class ActionForm(FlaskForm):
    """The form of one action besides settle, generated from its declared input (``game.action_input``):
    ``declared`` lists the input fields it shows, in the order it shows them."""

    declared: tuple[inputs.Field, ...] = ()
    seats: int = 4  # the game's most seats: a per-seat entry has a box per seat

    def rules_payload(self) -> dict:
        return rules_payload(self.rules.form)

    def payload(self) -> dict:
        """The form as the action's input, read as the phone reads a posted form (one reading); the house rules
        as the rules sub-form reads them."""
        out = offline_page.action_payload(self.game, self.action, offline_page.Posted(form_pairs(self)))
        return {**out, "rules": self.rules_payload()}

    def label_of(self, path: str) -> str | None:
        """The form's own words for an engine path (the phone finds the same: ``scoring.result_view``)."""
        return action_label(self.game, self.action, path, current_lang())

    def has_entry(self, entry: str) -> bool:
        return any(field.entry == entry for field in self.declared)

    def boxes(self, field: inputs.Field) -> list:
        """The form fields that enter ``field`` (one per seat for the plays of a trick)."""
        return [self[name] for name in box_names(field, self.seats)]


def box_names(field: inputs.Field, seats: int) -> list[str]:
    """The names of a field's boxes: its own, or one per seat (``plays`` → ``play0`` … ``play3``)."""
    if field.entry != "seat_cards":
        return [field.name]
    return [f"{field.name.removesuffix('s')}{i}" for i in range(seats)]


class Entry:
    """How a form enters one kind of input: the WTForms field it makes (webapp/offline_page.py reads it back)."""

    def __init__(self, make):
        self.make = make


def _select(field, seats):
    return SelectField(LabelText(field.label), choices=[(v, LabelText(w)) for v, w in field.choices],
                       default=field.choices[0][0], validate_choice=False)


def _seat_select(field, seats):
    return SelectField(LabelText(field.label), choices=[(str(i), str(seat_number(i))) for i in range(seats)],
                       default=str(field.default), validate_choice=False)


def _described(kind):
    return lambda field, seats: kind(LabelText(field.label),
                                     description=LabelText(field.help) if field.help else "")


ENTRIES = {
    "cards": Entry(lambda field, seats: CardsField(LabelText(field.label))),
    "choice": Entry(_select),
    "table_reading": Entry(lambda field, seats: StringField(LabelText(field.label))),
    "number": Entry(_described(StringField)),
    "switch": Entry(_described(BooleanField)),
    "seat": Entry(_seat_select),
    "words": Entry(lambda field, seats: StringField(LabelText(field.label))),
    "card_lines": Entry(lambda field, seats: TextAreaField(LabelText(field.label))),
    "seat_cards": Entry(None),
}


def _form_fields(field: inputs.Field, seats: int) -> dict:
    if field.entry == "seat_cards":
        return {name: CardsField(LabelText(field.label_of_item(i)))
                for i, name in enumerate(box_names(field, seats))}
    return {field.name: ENTRIES[field.entry].make(field, seats)}


_ACTION_FORMS: dict[tuple[str, str], type[ActionForm]] = {}


def action_form_class(game: Game, action: str) -> type[ActionForm]:
    """The form of ``action`` (check, hint, trick, bidding) for ``game``, built once."""
    key = (game.slug, action)
    if key not in _ACTION_FORMS:
        declared = tuple(game.action_input(action).form_fields())
        seats = game.seats[1]
        attrs: dict = {"declared": declared, "seats": seats, "game": game, "action": action,
                       "rules": make_rules_field(game)}
        for field in declared:
            attrs.update(_form_fields(field, seats))
        _ACTION_FORMS[key] = type(f"{action.title()}Form_{game.slug}", (ActionForm,), attrs)
    return _ACTION_FORMS[key]


FIELD_PATH = re.compile(r"^(?P<name>[a-z_]+)(?:\[(?P<index>\d+)\])?(?:\.(?P<sub>[a-z_0-9]+))?$")


def _target(form: FlaskForm, path: str | None):
    """The form field an engine path names: ``rules.x`` in the rules sub-form, ``plays[1]`` → ``play1``,
    ``others[2]`` → ``others``, ``cards`` (a lone play) → ``play``."""
    if not path:
        return None
    if path.startswith("rules."):
        sub = form._fields.get("rules")
        return sub.form._fields.get(path.split(".", 1)[1]) if sub is not None else None
    m = FIELD_PATH.match(path)
    if not m:
        return None
    name, index = m.group("name"), m.group("index")
    names = [path, f"{name[:-1]}{index}" if index is not None else None, name, "play" if name == "cards" else None]
    return next((form._fields[n] for n in names if n and n in form._fields), None)


def attach_error(form: FlaskForm, field: str | None, message: str) -> bool:
    """Put an engine error on the form field it names; False if none matches."""
    target = _target(form, field)
    if target is None:
        return False
    target.errors = list(target.errors or []) + [message]
    return True


def label_of(form: FlaskForm, path: str) -> str | None:
    """The form's own words for an engine path (None: the form has no such field)."""
    target = _target(form, path)
    if target is None:
        return None
    m = FIELD_PATH.match(path)
    label = str(target.label.text).split("（")[0]
    index = m.group("index") if m else None
    if index is not None and target.name == m.group("name"):  # one field holding a list: say which item
        return render(t("{f}第{n}项", "{f}, item {n}", f=label, n=int(index) + 1), current_lang())
    return label
