"""The 规则 / Rules tab of every game: prose in both languages, the readings
of rules/*.md marked on the page, the live worked examples giving the binding
results, and the trump order for trick games."""
from __future__ import annotations

import re

import pytest
from flask import render_template
from markupsafe import escape

from scoring.i18n import render
from scoring.registry import SLUGS, get_game
from webapp.examples import examples_for

HEADINGS = {
    "zh": ["目标", "牌与大小", "牌型", "出牌", "结算"],
    "en": ["Goal", "Cards and order", "Patterns", "Play", "Settlement"],
}
EXTRA_HEADINGS = {  # sections only some games have
    "hongwu": {"zh": ["发牌与叫分", "出牌与跟牌"], "en": ["Deal and bidding", "Play and following"]},
    "erqiwang": {"zh": ["分组", "发牌、叫分、底牌", "出牌与跟牌"],
                 "en": ["Sides", "Deal, bidding, bottom", "Play and following"]},
}

# Every *(reading)* of rules/<slug>.md, by a phrase its note on the page must hold.
READINGS = {
    "paodekuai": {
        "zh": ["48张", "连三同张带牌", "AA2233", "同花顺不算炸弹", "总牌数", "大于1"],
        "en": ["48 cards", "triple run with attachments", "AA2233", "not a bomb", "total cards", "more than 1"],
    },
    "shuangkou": {"zh": ["平扣"], "en": ["平扣"]},
    "q783": {"zh": ["本小局得分多的胜"], "en": ["the side that gained most wins"]},
    "hongwu": {
        # the spec's four readings, plus two places it says the seed is silent or garbled
        "zh": ["90 … 300", "跟牌须跟牌型", "最后一墩", "就算被抓", "摔牌失败", "乱码"],
        "en": ["90 … 300", "Follow the lead", "last trick", "counts as captured", "failed throw", "garbled"],
    },
    "erqiwang": {
        "zh": ["二对二", "不叫", "漏了10", "大光", "40分算小光", "投降"],
        "en": ["two against two", "pass", "leave out the 10", "大光", "40 points counts as 小光", "surrender"],
    },
}

# The deltas of the binding examples that webapp/examples.py shows, as the page prints them.
EXPECTED_DELTAS = {
    "paodekuai": ["87, -5, -52, -30", "-4, 28, -24", "-1, -108, -7, 116", "29, 0, -3, -26"],
    "shuangkou": ["12, 4, 4, -20", "-4, 4, -4, 4", "-13, -7, 27, -7"],
    # solo example; scoring: cards before the penalty; teams: +10/−10 rounds, then 100 from each loser
    "q783": ["-100, 55, 145, -100", "-30, 50, 30, -50", "-95, 95, -95, 95"],
    "hongwu": ["12, -4, -4, -4", "2, -8, 2, 4", "8, -2, -4, -2"],
    "erqiwang": ["-4, 4, -4, 4", "4, -4, 4, -4", "8, -8, 8, -8", "-1, 3, -1, -1"],
}

# Verdicts of the check and trick examples: (payload key, value) -> legal / winner index.
EXPECTED_VERDICTS = {
    "paodekuai": {("play", "♥3 ♥4 ♥5 ♥6 ♥7"): True, ("play", "♠10 ♥10 ♣10 ♦3"): False},
    "shuangkou": {("play", "大王 大王 小王 小王"): True, ("play", "9 9 9 9 9 9 9"): True,
                  ("play", "7 7 8 9 9 大王"): True},
    "q783": {("play", "♦Q ♦7 ♦8 ♦3"): True, ("play", "♠4 ♥4 ♣4 ♦4"): True},
    "hongwu": {("play", "♣9 ♣4"): False, ("plays", ("大王", "♥5", "小王", "♠2")): 1,
               ("plays", ("♣K ♣K", "♠4 ♠6")): 0},
    "erqiwang": {("plays", ("♥7", "♠7", "大王", "♦7")): 2, ("plays", ("♥A ♥A", "♠3 ♠3")): 1},
}

LANGS = ["zh", "en"]
READING_SPAN = {"zh": re.compile(r'<span class="reading-note">(解读：.*?)</span>', re.S),
                "en": re.compile(r'<span class="reading-note">(Reading: .*?)</span>', re.S)}


def rules_page(client, slug, lang, query=""):
    client.get(f"/lang/{lang}")
    resp = client.get(f"/{slug}/rules{query}")
    return resp.status_code, resp.get_data(as_text=True)


def prose(app, slug, lang):
    """The game's rules prose on its own, whether or not its engine is built yet."""
    with app.test_request_context():
        return render_template(f"rules/_{slug}.html", lang=lang, game=get_game(slug))


def options_named(slug, html, lang):
    """The house rules the prose names, by their label in ``lang``."""
    return {o.name for o in get_game(slug).ruleset.options if str(escape(render(o.label, lang))) in html}


def h2_texts(html):
    return [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<h2[^>]*>(.*?)</h2>", html, re.S)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_rules_page_answers_200(client, slug, lang):
    status, _ = rules_page(client, slug, lang)
    assert status == 200


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_prose_has_every_section_heading_in_its_language_only(app, slug, lang):
    headings = h2_texts(prose(app, slug, lang))
    wanted = HEADINGS[lang] + EXTRA_HEADINGS.get(slug, {}).get(lang, [])
    for h in wanted:
        assert any(x == h or x.startswith(h) for x in headings), (h, headings)
    other = "en" if lang == "zh" else "zh"
    assert not set(headings) & set(HEADINGS[other]), headings


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_prose_marks_every_reading_of_the_spec(app, slug, lang):
    notes = READING_SPAN[lang].findall(prose(app, slug, lang))
    assert len(notes) >= len(READINGS[slug][lang])
    for phrase in READINGS[slug][lang]:
        assert any(phrase in n for n in notes), (phrase, notes)


@pytest.mark.parametrize("slug", SLUGS)
def test_prose_is_as_detailed_in_english_as_in_chinese(app, slug):
    zh, en = prose(app, slug, "zh"), prose(app, slug, "en")
    # both blocks name the same house rules and hold as many sections and readings
    assert options_named(slug, zh, "zh") == options_named(slug, en, "en")
    assert len(h2_texts(zh)) == len(h2_texts(en))
    assert len(READING_SPAN["zh"].findall(zh)) == len(READING_SPAN["en"].findall(en))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_prose_names_every_house_rule_option_in_words(app, slug, lang):
    html = prose(app, slug, lang)
    assert options_named(slug, html, lang) == {o.name for o in get_game(slug).ruleset.options}
    assert "<code>" not in re.sub(r"<code>[^<a-z]*</code>", "", html)  # only cards stay in code


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_rules_page_carries_the_prose_headings_and_reading_notes(client, app, slug, lang):
    _, html = rules_page(client, slug, lang)
    on_page = h2_texts(html)
    for heading in h2_texts(prose(app, slug, lang)):
        assert heading in on_page
    notes = READING_SPAN[lang].findall(html)
    assert len(notes) >= len(READINGS[slug][lang])
    for phrase in READINGS[slug][lang]:
        assert any(phrase in n for n in notes), phrase


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_worked_examples_show_the_binding_deltas(client, slug, lang):
    _, html = rules_page(client, slug, lang)
    shown = re.findall(r"<strong>(-?\d+(?:, -?\d+)+)</strong>", html)
    for deltas in EXPECTED_DELTAS[slug]:
        assert deltas in shown, (deltas, shown)


@pytest.mark.parametrize("slug", SLUGS)
def test_worked_examples_give_the_binding_verdicts_and_no_errors(slug):
    shown = examples_for(get_game(slug), "zh")
    assert len(shown) == len(get_game(slug).examples)  # every example's action exists in the engine
    checked = 0
    for ex in shown:
        assert "error" not in ex["result"], ex
        for (key, value), expected in EXPECTED_VERDICTS[slug].items():
            got = ex["payload"].get(key)
            if (tuple(got) if isinstance(got, list) else got) != value:
                continue
            checked += 1
            result = ex["result"]["legal"] if ex["action"] == "check" else ex["result"]["winner"]
            assert result == expected, (value, ex["result"])
    assert checked == len([e for e in shown if e["action"] in ("check", "trick")])


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_has_three_to_six_worked_examples(slug):
    assert 3 <= len(get_game(slug).examples) <= 6


def test_hongwu_order_for_hearts_trump_starts_with_the_red_five(client):
    _, html = rules_page(client, "hongwu", "zh", "?trump=♥")
    order = re.search(r'<ol class="order">(.*?)</ol>', html, re.S).group(1)
    items = re.findall(r'<span class="cards">([^<]*)</span>', order)
    assert items[0] == "♥5"
    assert items[1:4] == ["大王", "小王", "♥3"]
    assert "♥5" not in " ".join(items[1:])  # ♥5 has left the hearts


def test_erqiwang_order_for_hearts_trump_puts_jokers_then_the_heart_seven(client):
    _, html = rules_page(client, "erqiwang", "en", "?trump=♥")
    order = re.search(r'<ol class="order">(.*?)</ol>', html, re.S).group(1)
    items = re.findall(r'<span class="cards">([^<]*)</span>', order)
    assert items[0] == "大王" and items[1] == "小王" and items[2] == "♥7"
