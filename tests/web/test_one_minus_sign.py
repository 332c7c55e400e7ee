"""One minus sign for the numbers players read (issue 41, item 4): − (U+2212), never the hyphen, on the table,
its hands, the settle-up page and its share text, the circle page, the result of a hand and the steps; the
pages write signed numbers with one filter (``signed``) and the phone's scripts as it does. A CSV keeps the
hyphen: a spreadsheet reads it as a number."""
from __future__ import annotations

import re
from pathlib import Path

from test_circles import circle_of, open_table, play
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures

from scoring.i18n import signed

ROOT = Path(__file__).resolve().parents[2]
HYPHENED = re.compile(r"(?<![\w/-])-\d")  # a hyphen before a digit as a reader would see it


def test_signed_writes_plus_the_true_minus_and_a_bare_zero():
    assert [signed(v) for v in (35, -20, 0, "3.50", "-1.25", "0.00")] == ["+35", "\u221220", "0", "+3.50",
                                                                         "\u22121.25", "0.00"]


def test_no_template_formats_a_signed_number_itself():
    assert not [p.name for p in (ROOT / "templates").rglob("*.html") if "%+d" in p.read_text(encoding="utf-8")]


def test_the_phones_scripts_write_the_true_minus():
    source = (ROOT / "static" / "share-image.js").read_text(encoding="utf-8")
    assert re.search(r"function signed\(n\) \{[^}]*(\\u2212|\u2212)", source)


def test_the_held_hands_lines_the_phones_engine_writes_have_the_true_minus():
    """held-in-phone.js writes no number itself: the phone's engine gives its lines (webapp/offline_page.py)."""
    from webapp.offline_page import by_name
    assert by_name(["甲", "乙", "丙"], [3, -3, 0]) == "甲 +3 · 乙 −3 · 丙 0"


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S))


def test_every_page_a_player_reads_writes_negative_numbers_with_the_true_minus(lclient):  # noqa: F811
    table = open_table(lclient, "hongwu")
    play(lclient, table, [{"declarer": 0, "bid": 100, "declarer_points": 40}])  # the declarer loses
    lost = min(lclient.get(f"/api/v1/tables/{table['id']}").get_json()["totals"])
    assert lost < 0
    pages = {"table": f"/tables/{table['id']}", "settle-up": f"/tables/{table['id']}/settle-up?per_point=0.5",
             "circle": f"/circles/{circle_of(lclient, table)}?per_point=0.5"}
    for name, path in pages.items():
        html = lclient.get(path).get_data(as_text=True)
        shown = text_of(html)
        assert signed(lost) in shown, name
        assert not HYPHENED.search(shown), (name, HYPHENED.findall(shown))
    share = re.search(r'<textarea[^>]*>(.*?)</textarea>', lclient.get(pages["settle-up"]).get_data(as_text=True),
                      re.S).group(1)
    assert signed(lost) in share and not HYPHENED.search(share)
    assert f",{lost}," in lclient.get(f"/tables/{table['id']}/export.csv").get_data(as_text=True).replace('"', "")
