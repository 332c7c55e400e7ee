"""The 规则 / Rules tab of every game: prose in both languages, the readings
of rules/*.md marked on the page, the live worked examples giving the binding
results, and the trump order for trick games."""
from __future__ import annotations

import json
import re
from pathlib import Path

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

# Every *(reading)* of docs/rules (the game's file, its part of variants.md and, for shedding games, the
# smallest play of common.md), as (words of the spec's reading, zh phrase of its note, en phrase of its note).
READINGS = {
    "paodekuai": [
        ('the seed says only "48张"', "只说“48张”", "only “48 cards”"),
        ("all carry singles or all carry pairs", "不能混带", "never a mix"),
        ("A carried single is any one card", "两个单张可以同点", "two singles may share a rank"),
        ("AA2233", "AA2233", "AA2233"),
        ("compares it only with straights", "同花顺不算炸弹", "a straight flush is not a bomb"),
        ("counts kicker **cards**", "数的是带了几张牌", "counts kicker cards"),
        ("总牌数", "总牌数", "total cards"),
        ("大于1", "大于1", "more than 1"),
        ("`aaa_top` does not fit this preset", "没有 AAA 可排", "no AAA for"),
        ("written the other way round", "带少牌的最后一手飞机", "a short airplane played as the last hand"),
        ("highest card lowest", "细心的玩家", "a careful player"),
    ],
    "shuangkou": [
        ("打和", "打和", "打和"),
        ("10 = 8 + 2 jokers", "10线的炸弹", "10-line bomb"),
        ("highest card lowest", "细心的玩家", "a careful player"),
    ],
    "q783": [
        ("分牌不洗入牌山", "手牌里永远没有分牌", "never holds one"),
        ("first out is the default", "默认按谁先出完", "First out is the default"),
        ("分数多的一方即为胜方", "每人自成一方", "every player is a side of their own"),
        ("When a bank empties", "分库付光", "once a bank empties"),
        ("highest card lowest", "细心的玩家", "a careful player"),
    ],
    "hongwu": [
        ("90 … 300", "90 … 300", "90 … 300"),
        ("The opening bid", "从起叫点算起", "counting from where the bidding starts"),
        ("Shape-following", "跟牌型", "Following the shape"),
        ("如果庄家获得底牌", "如果庄家获得底牌", "winning the last trick"),
        ("a red five is captured when", "就算被抓", "counts as captured"),
        ("the source gives 2-deck numbers only", "按300分放大", "scale to the 300 points"),
        ("按照单牌、对子、拖拉机的顺序选其较小的出", "不管被管上的是哪一手", "whichever unit was beaten"),
    ],
    "erqiwang": [
        ("## Sides", "二对二", "two against two"),
        ("a player may pass", "可以不叫", "may pass"),
        ("omit 10", "漏了10", "leave out the 10"),
        ("if 大光", "大光读作", "大光 is read as"),
        ("40分算小光", "40分算小光", "40 points counts as 小光"),
        ("其他两家都要给", "其他三人都付", "all three other players pay"),
        ("mentions it only for 冲关", "只在讲冲关时提到投降", "surrender only for 冲关"),
        ("so it has no 抠底", "没有抠底", "no 抠底"),
    ],
}
LANG_COLUMN = {"zh": 1, "en": 2}

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


def note_phrases(slug, lang):
    return [entry[LANG_COLUMN[lang]] for entry in READINGS[slug]]


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
    assert len(notes) >= len(READINGS[slug])
    for phrase in note_phrases(slug, lang):
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
    assert len(notes) >= len(READINGS[slug])
    for phrase in note_phrases(slug, lang):
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


# --- Every reading of the spec has its note on the page -------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
VARIANT_PART = {"paodekuai": "跑得快", "shuangkou": "双扣", "q783": "Q783", "hongwu": "红五", "erqiwang": "南昌二七王"}
SHEDDING = {"paodekuai", "shuangkou", "q783"}  # the smallest play of common.md is a reading for these


def md_section(text: str, heading: str) -> str:
    """The body of the first markdown section whose heading line starts with ``heading``, up to the next
    heading of the same or a higher level."""
    found = re.search(r"^" + re.escape(heading) + r".*$", text, re.M)
    level = heading.split(" ")[0]
    rest = text[found.end():]
    end = re.search(rf"^#{{1,{len(level)}}} ", rest, re.M)
    return rest[: end.start()] if end else rest


def reading_chunks(text: str) -> list[str]:
    """Paragraphs and list items of the spec that carry a *(reading…)* mark."""
    return [c for c in re.split(r"\n\s*\n|\n(?=\s*(?:[-*]|\d+\.) )", text) if "(reading" in c]


def spec_readings(slug: str) -> list[str]:
    chunks = reading_chunks((DOCS / f"{slug}.md").read_text(encoding="utf-8"))
    chunks += reading_chunks(md_section((DOCS / "variants.md").read_text(encoding="utf-8"), "# " + VARIANT_PART[slug]))
    if slug in SHEDDING:
        chunks += reading_chunks(md_section((DOCS / "common.md").read_text(encoding="utf-8"),
                                            "## Smallest legal play"))
    return chunks


@pytest.mark.parametrize("slug", SLUGS)
def test_every_reading_of_the_spec_is_mapped_to_a_note_of_its_rules_page(slug):
    """Each *(reading)* of docs/rules is named in READINGS (so a reading added to the spec fails here until
    its page says it), and each READINGS entry still points at a reading of the spec."""
    chunks = spec_readings(slug)
    for chunk in chunks:
        mapped = [entry for entry in READINGS[slug] if entry[0] in chunk]
        assert len(mapped) == chunk.count("(reading"), chunk
    for words, _, _ in READINGS[slug]:
        assert any(words in chunk for chunk in chunks), words


def test_the_spec_reading_finder_finds_the_ten_new_readings():
    """The finder above can fail: it sees readings in each game's file, in variants.md and in common.md."""
    found = {slug: len(spec_readings(slug)) for slug in SLUGS}
    assert found == {"paodekuai": 10, "shuangkou": 3, "q783": 4, "hongwu": 7, "erqiwang": 7}, found


# --- Written for players --------------------------------------------------------------------------------

# File and repository names, platform code names and confidence labels a developer would write.
DEVELOPER_WORDS = re.compile(
    r"kubegames|xiuxiu|M2_CLIENT|QuiQiJingFeng|hangzhouanbang|qipai_|biaofen|hur95593|number5wh|wangSir66|"
    r"ChessTableQX|RunFastRoom|RoomRule|GameRuleLayer|threeTake|checkTake|BoomSettle|"
    r"\.(?:go|java|csd|md|tpl|py)\b|可信度|confidence|本应用|this app|engine|引擎|github",
    re.I)
# Words of a note about how the app was built ("本应用把它们做成…", "we chose"), where a reading says how a rule
# is read instead.
BUILDER_WORDS = re.compile(r"我们|本应用|做成|\b(?:we|our|us)\b", re.I)
FULL_WIDTH = re.compile(r"[，。：；（）「」『』、！？【】《》]")


def page_text(html: str) -> str:
    """What a reader sees in the page's main part (no tags, no attributes)."""
    main = html[html.index("<main"):]
    return re.sub(r"<[^>]+>", " ", main)


def test_developer_and_builder_words_are_found_where_written():
    for words in ("kubegames game_user_request.go", "xiuxiu RoomRule threeTake", "biaofen「飙分-规则.md」",
                  "hangzhouanbang/qipai_wenzhoushuangkou", "来源（可信度低）", "Source (low confidence)"):
        assert DEVELOPER_WORDS.search(words), words
    for words in ("本应用把它们做成同一个游戏的三个预设", "这里的默认是我们的解读", "We chose first out", "our reading"):
        assert BUILDER_WORDS.search(words), words
    assert not BUILDER_WORDS.search("Must beat if able; house rules")
    assert FULL_WIDTH.search("“Q783中没有顺子、连对”") and not FULL_WIDTH.search("Q > 7 (“2前置”) … −1")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_rules_page_names_no_file_repository_confidence_label_or_how_the_app_was_built(client, slug, lang):
    _, html = rules_page(client, slug, lang)
    text = page_text(html)
    found = DEVELOPER_WORDS.findall(text) + BUILDER_WORDS.findall(text)
    assert not found, found


@pytest.mark.parametrize("slug", SLUGS)
def test_english_rules_page_has_no_full_width_punctuation(client, slug):
    _, html = rules_page(client, slug, "en")
    text = page_text(html)
    assert not [m.group(0) for m in re.finditer(r".{0,30}" + FULL_WIDTH.pattern, text)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_rules_page_ends_with_a_sources_note_of_sites_and_platforms(client, slug, lang):
    _, html = rules_page(client, slug, lang)
    last = h2_texts(html)[-1]
    assert last == {"zh": "来源", "en": "Sources"}[lang]
    note = re.search(r'<p class="sources">(.*?)</p>', html, re.S).group(1)
    for href in re.findall(r'href="([^"]+)"', note):
        assert href.startswith(("https://", "http://")) and "github" not in href, href


def contents_links(html: str) -> list[str]:
    nav = re.search(r'<nav class="rules-toc"[^>]*>(.*?)</nav>', html, re.S).group(1)
    return re.findall(r'href="#([^"]+)"', nav)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", SLUGS)
def test_contents_list_comes_first_and_each_entry_jumps_to_a_section_of_the_page(client, slug, lang):
    _, html = rules_page(client, slug, lang)
    links = contents_links(html)
    section_ids = re.findall(r'<h2 id="([^"]+)"', html)
    assert links == section_ids  # every section listed, in page order, and every entry lands on one
    assert html.index('class="rules-toc"') < html.index("<h2")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_house_rule_or_preset_help_names_a_developer_source(client, lang):
    """The options' and presets' words (forms, the new-table page, GET /api/v1/games) are a player's too."""
    games = client.get("/api/v1/games", headers={"Accept-Language": lang}).get_json()
    words = json.dumps(games, ensure_ascii=False)
    assert not DEVELOPER_WORDS.search(words), DEVELOPER_WORDS.search(words).group(0)


def _other_value(option):
    return next(v for v in option.values if v != option.default)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_option_under_every_preset_applies_or_is_refused_as_its_rules_page_says(client, slug):
    """No option is silently ignored (issue 27 item 3): each option away from its default, under each preset,
    is taken or refused with option_not_for_preset, and the rules page's options table says which."""
    game = get_game(slug)
    html = client.get(f"/{slug}/rules", headers={"Accept-Language": "en"}).get_data(as_text=True)
    several = len(game.ruleset.presets) > 1
    for option in game.ruleset.options:
        value = _other_value(option)
        wire = value.value if hasattr(value, "value") else value
        cell = re.search(rf'<td class="applies" data-option="{option.name}">(.*?)</td>', html, re.S)
        assert (cell is not None) == several, option.name
        for preset in game.ruleset.presets:
            try:
                game.ruleset.resolve({"preset": preset.name, option.name: wire})
                refused = False
            except Exception as exc:  # noqa: BLE001 - the code says which refusal it is
                assert getattr(exc, "code", None) == "option_not_for_preset", (option.name, preset.name, exc)
                refused = True
            assert refused == (not option.applies_to(preset.name)), (option.name, preset.name)
            if several:
                label = escape(render(preset.label, "zh"))
                named = str(label) in cell.group(1)
                assert named == bool(option.only_presets and not refused), (option.name, preset.name)
