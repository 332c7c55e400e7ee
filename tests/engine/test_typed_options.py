"""House-rule values are enum members (``Choice``): compared by identity, written as their text."""
import json

import pytest

from scoring import erqiwang, hongwu, paodekuai, q783, shuangkou
from scoring.registry import all_games
from scoring.rules import Choice, Option, Preset, RuleSet
from scoring.i18n import t


def test_a_named_option_value_resolves_to_its_enum_member_from_json_text():
    rules = q783.GAME.ruleset.resolve({"scoring": "cards", "winner": "points"})
    assert rules.scoring is q783.Scoring.CARDS
    assert rules.winner is q783.Winner.POINTS


def test_defaults_and_preset_settings_resolve_to_enum_members():
    assert shuangkou.GAME.ruleset.resolve({"preset": "baibian"}).wild is shuangkou.Wild.BIG
    assert paodekuai.GAME.ruleset.resolve({}).zhaniao is paodekuai.Zhaniao.OFF
    assert hongwu.GAME.ruleset.resolve({"preset": "tiers_321"}).preset is hongwu.Payout.TIERS_321
    assert erqiwang.GAME.ruleset.resolve({"sides": "solo"}).sides is erqiwang.Sides.SOLO


def test_every_named_value_of_every_game_resolves_to_a_member_that_reads_as_its_text():
    for game in all_games():
        for option in game.ruleset.options:
            for value in option.values:
                if not isinstance(value, Choice):
                    continue
                resolved = game.ruleset.resolve({option.name: str(value)})[option.name]
                assert resolved is value
                assert json.dumps(resolved) == json.dumps(str(value))
                assert f"{resolved}" == value.value


def test_a_default_that_is_not_among_the_values_fails_when_declared():
    class Colour(Choice):
        RED = "red"

    with pytest.raises(ValueError, match="default"):
        Option("colour", "blue", tuple(Colour), t("颜色", "Colour"))


def test_a_preset_setting_a_value_an_option_lacks_fails_when_declared():
    class Colour(Choice):
        RED = "red"

    option = Option("colour", Colour.RED, tuple(Colour), t("颜色", "Colour"))
    with pytest.raises(ValueError):
        RuleSet(options=(option,), presets=(Preset("p", t("p", "p"), {"colour": "blue"}),))
