"""House rules and presets are shown in words, from their declarations: no code values
(last_trick, always, seed, per_card) and presets named by their source, never "seed"."""
from __future__ import annotations

import re

import pytest

from scoring.registry import SLUGS, get_game
from webapp.forms import _value_key


def _visible(html: str) -> str:
    html = re.sub(r'<details class="api-payload">.*?</details>', "", html, flags=re.S)  # the folded API request
    html = re.sub(r"<(script|style|head)\b.*?</\1>", "", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _codes(slug: str) -> set[str]:
    """Every code value and preset name that is not also a plain word."""
    rs = get_game(slug).ruleset
    values = {_value_key(v) for o in rs.options for v in o.values if isinstance(v, str)}
    names = {p.name for p in rs.presets} | {o.name for o in rs.options}
    return {c for c in values | names if re.search(r"[_\d-]", c)} | {"seed"}


def _found(codes, text):
    return {c for c in codes if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", text)}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("slug", SLUGS)
def test_rules_page_shows_no_code_value(client, slug, lang):
    client.get(f"/lang/{lang}")
    text = _visible(client.get(f"/{slug}/rules").get_data(as_text=True))
    assert not _found(_codes(slug), text)
    assert "种子" not in text


@pytest.mark.parametrize("tab", ["settle", "check", "hint"])
@pytest.mark.parametrize("slug", SLUGS)
def test_rule_selects_offer_words_not_codes(client, slug, tab):
    resp = client.get(f"/{slug}/{tab}")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    options = re.findall(r"<option[^>]*>([^<]*)</option>", html)
    assert options
    assert not _found(_codes(slug), " | ".join(options))


def test_presets_name_their_source_platform():
    assert get_game("hongwu").ruleset.preset("seed").label.zh == "游戏e家"
    labels = [p.label.render(lang) for slug in SLUGS for p in get_game(slug).ruleset.presets for lang in ("zh", "en")]
    assert not [x for x in labels if "seed" in x.lower() or "种子" in x or "原文规则" in x]


def test_option_table_lists_allowed_values_in_words(client):
    text = _visible(client.get("/hongwu/rules").get_data(as_text=True))
    assert "赢最后一墩才得" in text and "庄家总是得" in text
    assert not _found({"last_trick", "always"}, text)


def test_a_rule_refused_under_a_preset_names_the_presets_in_words(api):
    status, out = api("paodekuai/settle", {"winner": 0, "cards_left": [0, 5, 7, 8], "heart10": 1,
                                           "rules": {"preset": "zhengshangyou108", "zhaniao": "cards"}})
    assert status == 422 and out["error"]["code"] == "option_not_for_preset"
    assert "争上游 108张" in out["error"]["message"] and "跑得快 48张" in out["error"]["message"]
    assert not _found(_codes("paodekuai"), out["error"]["message"])


@pytest.mark.parametrize("preset", [{}, [], 0, True, {"name": "paodekuai48"}])
def test_a_preset_that_is_not_a_name_is_refused_not_taken_as_the_default(api, preset):
    status, out = api("paodekuai/settle", {"winner": 0, "cards_left": [0, 5, 13, 10], "rules": {"preset": preset}})
    assert status == 400 and out["error"]["field"] == "rules.preset"


@pytest.mark.parametrize("preset", [None, ""])
def test_no_preset_or_a_blank_one_is_the_default(api, preset):
    status, _ = api("paodekuai/settle", {"winner": 0, "cards_left": [0, 5, 13, 10], "rules": {"preset": preset}})
    assert status == 200
