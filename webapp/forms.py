"""WTForms forms. Each form builds the same JSON-shaped payload the API takes,
so pages and API run the same engine function (``Game.run``)."""
from __future__ import annotations

import re
from functools import wraps

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from jinja2 import pass_context
from wtforms import BooleanField, Form, FormField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import Optional as OptionalV

from scoring.errors import PaijuError
from scoring.games import Game
from scoring.i18n import render, seat_number, t
from scoring.inputs import SwitchField
from scoring.shedding.turn import TURN_FIELDS

from .i18n import current_lang
from .schema_forms import LabelText

SUIT_CHOICES = [("♠", "♠ 黑桃"), ("♥", "♥ 红桃"), ("♣", "♣ 梅花"), ("♦", "♦ 方块")]


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


def _blank(value):
    return None if value is None or (isinstance(value, str) and not value.strip()) else value


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
        if opt.is_int and len(opt.values) > 12:
            attrs[opt.name] = IntegerField(opt.name, validators=[OptionalV()])
        else:
            choices = [("", "")] + [(_value_key(v), _value_key(v)) for v in opt.values]
            attrs[opt.name] = SelectField(opt.name, choices=choices, default="", validate_choice=False)
    return type(f"Rules_{game.slug}", (Form,), attrs)


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
    out = {}
    for name, field in rules_form._fields.items():
        value = field.data
        if _blank(value) is None or name == "csrf_token":
            continue
        out[name] = value
    return out


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
# Check / hint / trick forms
# ---------------------------------------------------------------------------

def _game_form(game: Game, base: type[FlaskForm], **fields) -> type[FlaskForm]:
    attrs = dict(fields)
    attrs["rules"] = make_rules_field(game)
    return type(f"{base.__name__}_{game.slug}", (base,), attrs)


class GameForm(FlaskForm):
    def payload(self) -> dict:  # pragma: no cover - overridden
        raise NotImplementedError

    def rules_payload(self) -> dict:
        return rules_payload(self.rules.form)

    def turn_payload(self) -> dict:
        """The turn inputs the game's form has (报单: the next player's cards; the first play of the hand)."""
        out = {}
        if "next_cards_left" in self._fields and _blank(self.next_cards_left.data) is not None:
            out["next_cards_left"] = self.next_cards_left.data
        if "first_play" in self._fields and self.first_play.data:
            out["first_play"] = True
        return out


class SheddingCheckForm(GameForm):
    def payload(self):
        out = {"play": self.play.data or "", "previous": _blank(self.previous.data),
               "hand": _blank(self.hand.data), "rules": self.rules_payload(), **self.turn_payload()}
        if _blank(self.previous_reading.data) is not None and out["previous"] is not None:
            out["previous_reading"] = self.previous_reading.data
        return out


class TrickCheckForm(GameForm):
    def payload(self):
        others = [line for line in (self.others.data or "").splitlines() if line.strip()]
        return {"trump": self.trump.data, "lead": _blank(self.lead.data), "play": self.play.data or "",
                "hand": self.hand.data or "", "others": others or None, "rules": self.rules_payload()}


class SheddingHintForm(GameForm):
    def payload(self):
        return {"hand": self.hand.data or "", "previous": _blank(self.previous.data),
                "rules": self.rules_payload(), **self.turn_payload()}


class TrickHintForm(GameForm):
    def payload(self):
        return {"trump": self.trump.data, "hand": self.hand.data or "", "lead": _blank(self.lead.data),
                "rules": self.rules_payload()}


class TrickWinnerForm(GameForm):
    def payload(self):
        plays = [p or "" for p in (self.play0.data, self.play1.data, self.play2.data, self.play3.data)]
        while plays and _blank(plays[-1]) is None:  # empty boxes at the end are players not yet played;
            plays.pop()                               # an empty box in between is an error the engine names
        return {"trump": self.trump.data, "plays": plays, "rules": self.rules_payload()}


def trump_field():
    return SelectField(_l("主牌花色"), choices=SUIT_CHOICES, default="♠", validate_choice=False)


def turn_fields(game: Game) -> dict:
    """The check/hint boxes of the turn inputs the game reads (declared in ``scoring/shedding/turn.py``)."""
    out = {}
    for name in game.turn_inputs:
        declared = TURN_FIELDS[name]
        kind = BooleanField if isinstance(declared, SwitchField) else StringField
        out[name] = kind(LabelText(declared.label), description=LabelText(declared.help))
    return out


@per_game
def check_form_class(game: Game):
    if game.kind == "trick":
        return _game_form(game, TrickCheckForm,
                          trump=trump_field(),
                          lead=CardsField(_l("首家出的牌（你首出则留空）")),
                          hand=CardsField(_l("你的手牌（出牌前）")),
                          play=CardsField(_l("你要出的牌")),
                          others=TextAreaField(_l("其他三家的手牌（可选，每行一家，用于判断甩牌）")))
    return _game_form(game, SheddingCheckForm,
                      previous=CardsField(_l("桌上要压的牌（首出则留空）")),
                      previous_reading=StringField(_l("桌上那手牌按哪种读法")),
                      play=CardsField(_l("你要出的牌")),
                      hand=CardsField(_l("你的手牌（可选）")), **turn_fields(game))


@per_game
def hint_form_class(game: Game):
    if game.kind == "trick":
        return _game_form(game, TrickHintForm,
                          trump=trump_field(),
                          lead=CardsField(_l("首家出的牌（你首出则留空）")),
                          hand=CardsField(_l("你的手牌")))
    return _game_form(game, SheddingHintForm,
                      previous=CardsField(_l("桌上要压的牌（首出则留空）")),
                      hand=CardsField(_l("你的手牌")), **turn_fields(game))


class BiddingForm(GameForm):
    def payload(self):
        bids = [b for b in re.split(r"[\s,，、;；]+", self.bids.data or "") if b]
        return {"bids": bids, "start": self.start.data or 0, "rules": self.rules_payload()}


@per_game
def bidding_form_class(game: Game):
    return _game_form(game, BiddingForm,
                      start=SelectField(_l("谁先叫"), choices=[(str(i), str(seat_number(i))) for i in range(4)],
                                        default="0", validate_choice=False),
                      bids=StringField(_l("依次的叫分（不叫写 pass 或 不叫），用空格分开")))


@per_game
def trick_form_class(game: Game):
    return _game_form(game, TrickWinnerForm,
                      trump=trump_field(),
                      play0=CardsField(_l("首家")), play1=CardsField(_l("第二家")),
                      play2=CardsField(_l("第三家")), play3=CardsField(_l("第四家")))


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
