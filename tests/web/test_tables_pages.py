"""The table ledger's pages: create, edit link, read-only link, polling,
undo / edit / delete with CSRF, CSV export, QR code (SQLite and PostgreSQL)."""
from __future__ import annotations

import csv
import io
import re

import pytest
from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures

CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
NAMES = ["阿明", "小红", "老王", "Jen"]


def csrf(html: str) -> str:
    match = CSRF.search(html)
    assert match, "the page has no CSRF token"
    return match.group(1)


def open_table(client, names=NAMES, game="q783", **rules):
    page = client.get(f"/tables/new?game={game}").get_data(as_text=True)
    data = {"csrf_token": csrf(page), "game": game}
    data.update({f"name_{i}": n for i, n in enumerate(names)})
    data.update({f"rules-{k}": v for k, v in rules.items()})
    resp = client.post(f"/tables/new?game={game}", data=data)
    assert resp.status_code == 302, resp.get_data(as_text=True)[:2000]
    edit_path = resp.headers["Location"].split("?")[0]
    table_id = edit_path.split("/")[2]
    return table_id, edit_path


def record(client, edit_path, **fields):
    page = client.get(edit_path).get_data(as_text=True)
    return client.post(edit_path, data={"csrf_token": csrf(page), **fields})


def api_table(client, table_id):
    return client.get(f"/api/v1/tables/{table_id}").get_json()


@pytest.fixture
def client(lclient):  # noqa: F811
    return lclient


# --- creating ---------------------------------------------------------------

def test_the_create_page_offers_the_built_games_and_their_house_rules(client):
    html = client.get("/tables/new").get_data(as_text=True)
    assert "/tables/new?game=q783" in html
    html = client.get("/tables/new?game=q783").get_data(as_text=True)
    assert 'name="name_0"' in html and 'name="name_5"' in html
    assert 'name="rules-preset"' in html and 'name="rules-penalty"' in html
    assert csrf(html)


def test_creating_a_table_from_the_form_leads_to_the_edit_link_with_share_link_and_qr(client):
    table_id, edit_path = open_table(client, penalty="30")
    html = client.get(edit_path + "?new=1").get_data(as_text=True)
    assert all(n in html for n in NAMES)
    assert f"/tables/{table_id}" in html and "<svg" in html  # read-only link and its QR code
    table = api_table(client, table_id)
    assert table["players"] == NAMES and table["rules"]["penalty"] == 30


def test_creating_a_table_without_the_csrf_token_is_refused(client):
    resp = client.post("/tables/new?game=q783", data={"game": "q783", "name_0": "a", "name_1": "b", "name_2": "c"})
    assert resp.status_code == 400
    assert "/edit/" not in resp.headers.get("Location", "")


def test_creating_a_table_with_too_few_names_shows_the_error_in_the_readers_language(client):
    page = client.get("/tables/new?game=q783").get_data(as_text=True)
    resp = client.post("/tables/new?game=q783", data={"csrf_token": csrf(page), "game": "q783",
                                                      "name_0": "a", "name_1": "b"})
    assert resp.status_code == 422
    assert "3到6个玩家" in resp.get_data(as_text=True)
    client.set_cookie("lang", "en")
    page = client.get("/tables/new?game=q783").get_data(as_text=True)
    resp = client.post("/tables/new?game=q783", data={"csrf_token": csrf(page), "game": "q783", "name_0": "a"})
    assert resp.status_code == 422 and "3 to 6 players" in resp.get_data(as_text=True)


def test_an_unknown_or_unbuilt_game_on_the_create_page_falls_back_to_the_game_choice(client):
    resp = client.get("/tables/new?game=mahjong")
    assert resp.status_code == 200 and 'name="name_0"' not in resp.get_data(as_text=True)


# --- recording with the game's settle form ---------------------------------

def test_a_hand_entered_with_the_settle_form_is_stored_and_shown_with_totals_chart_and_steps(client):
    table_id, edit_path = open_table(client)
    resp = record(client, edit_path, **{"banks-0": "100", "banks-1": "100", "banks-2": "100", "banks-3": "100", "finish_order-0": "1"})
    assert resp.status_code == 303 and resp.headers["Location"].endswith("#entry")
    table = api_table(client, table_id)
    assert table["hands"][0]["deltas"] == [-50, 150, -50, -50]
    html = client.get(edit_path).get_data(as_text=True)
    assert 'id="hand-1"' in html and "+150" in html
    assert html.count("<polyline") == 4  # one line per player in the chart
    assert "罚分" in html  # the steps


def test_the_next_q783_hand_shows_the_carried_banks_and_ignores_typed_ones(client):
    table_id, edit_path = open_table(client)
    record(client, edit_path, **{"banks-0": "100", "banks-1": "100", "banks-2": "100", "banks-3": "100", "finish_order-0": "1"})
    html = client.get(edit_path).get_data(as_text=True)
    assert 'value="250"' in html and "carried-banks" in html
    record(client, edit_path, **{"banks-0": "1", "banks-1": "1", "banks-2": "1", "banks-3": "1", "finish_order-0": "0"})
    hand = api_table(client, table_id)["hands"][1]
    assert hand["banks_before"] == [50, 250, 50, 50] and "banks" not in hand["input"]


def test_a_hand_the_engine_rejects_shows_its_message_and_stores_nothing(client):
    table_id, edit_path = open_table(client)
    resp = record(client, edit_path, **{"finish_order-0": "9"})
    assert resp.status_code == 422
    assert "error" in resp.get_data(as_text=True)
    assert api_table(client, table_id)["hands"] == []


def test_recording_without_the_csrf_token_is_refused(client):
    table_id, edit_path = open_table(client)
    resp = client.post(edit_path, data={"finish_order-0": "1"})
    assert resp.status_code == 400
    assert api_table(client, table_id)["hands"] == []


# --- the read-only link -----------------------------------------------------

def test_the_read_only_page_has_no_way_to_change_anything_and_polls_for_new_hands(client):
    table_id, edit_path = open_table(client)
    record(client, edit_path, **{"finish_order-0": "1"})
    token = client.get_cookie("paiju_edit", path=f"/tables/{table_id}").value
    html = client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert token not in html and "/edit/" not in html
    assert "<form" not in html and "csrf_token" not in html
    assert re.search(r'hx-get="/tables/%s/live\?v=2&amp;n=1"' % table_id, html)
    assert 'hx-trigger="every 3s"' in html


def test_polling_answers_204_until_the_version_changes_then_the_new_hand(client):
    table_id, edit_path = open_table(client)
    assert client.get(f"/tables/{table_id}/live?v=1").status_code == 204
    record(client, edit_path, **{"finish_order-0": "2"})
    resp = client.get(f"/tables/{table_id}/live?v=1")
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200 and 'id="hand-1"' in html
    assert f"/tables/{table_id}/live?v=2" in html and 'hx-swap-oob="true"' in html
    assert "/edit/" not in html
    assert client.get(f"/tables/{table_id}/live?v=2").status_code == 204
    assert client.get("/tables/nope/live?v=1").status_code == 404


def test_a_wrong_edit_token_in_the_link_or_the_cookie_is_a_403_page(client):
    table_id, edit_path = open_table(client)
    resp = client.get(f"/tables/{table_id}/edit/not-the-token")
    assert resp.status_code == 403
    assert "编辑链接" in resp.get_data(as_text=True)
    page = client.get(edit_path).get_data(as_text=True)
    client.set_cookie("paiju_edit", "not-the-token", path=f"/tables/{table_id}")
    resp = client.post(edit_path, data={"csrf_token": csrf(page), "finish_order-0": "1"})
    assert resp.status_code == 403
    assert api_table(client, table_id)["hands"] == []


def test_an_unknown_table_page_is_a_404(client):
    assert client.get("/tables/does-not-exist").status_code == 404
    assert client.get("/tables/does-not-exist/export.csv").status_code == 404


def test_table_pages_keep_the_token_out_of_referers_and_caches(client):
    table_id, edit_path = open_table(client)
    resp = client.get(edit_path)
    assert resp.headers["Referrer-Policy"] == "no-referrer"
    assert "no-store" in resp.headers["Cache-Control"]
    assert "noindex" in resp.headers["X-Robots-Tag"]


# --- undo, edit, delete -----------------------------------------------------

def test_undo_removes_the_last_hand(client):
    table_id, edit_path = open_table(client)
    record(client, edit_path, **{"finish_order-0": "1"})
    record(client, edit_path, **{"finish_order-0": "2"})
    page = client.get(edit_path).get_data(as_text=True)
    resp = client.post(edit_path + "/undo", data={"csrf_token": csrf(page), "version": "3", "number": "2"})
    assert resp.status_code == 303
    table = api_table(client, table_id)
    assert [h["number"] for h in table["hands"]] == [1] and table["totals"] == [-50, 150, -50, -50]


def test_undo_from_a_stale_page_does_not_remove_someone_elses_new_hand(client):
    table_id, edit_path = open_table(client)
    record(client, edit_path, **{"finish_order-0": "1"})
    page = client.get(edit_path).get_data(as_text=True)  # this phone sees version 2
    record(client, edit_path, **{"finish_order-0": "2"})  # another phone adds hand 2
    resp = client.post(edit_path + "/undo", data={"csrf_token": csrf(page), "version": "2", "number": "1"})
    assert resp.status_code == 409 and "第1局已经不是最后一局了" in resp.get_data(as_text=True)
    assert len(api_table(client, table_id)["hands"]) == 2


def test_deleting_a_hand_asks_for_confirmation_first(client):
    table_id, edit_path = open_table(client)
    record(client, edit_path, **{"finish_order-0": "1"})
    record(client, edit_path, **{"finish_order-0": "2"})
    confirm = client.get(edit_path + "/hands/1/delete")
    html = confirm.get_data(as_text=True)
    assert confirm.status_code == 200 and "确定删除" in html
    assert len(api_table(client, table_id)["hands"]) == 2  # asking deletes nothing
    resp = client.post(edit_path + "/hands/1/delete", data={"csrf_token": csrf(html), "version": "3"})
    assert resp.status_code == 303
    table = api_table(client, table_id)
    assert [h["number"] for h in table["hands"]] == [2] and table["totals"] == [-50, -50, 150, -50]


def test_editing_a_past_hand_with_its_form_recomputes_the_totals(client):
    table_id, edit_path = open_table(client)
    record(client, edit_path, **{"banks-0": "100", "banks-1": "100", "banks-2": "100", "banks-3": "100", "finish_order-0": "1"})
    record(client, edit_path, **{"finish_order-0": "2"})
    html = client.get(edit_path + "/hands/1").get_data(as_text=True)
    assert 'value="100"' in html  # the stored input fills the form
    resp = client.post(edit_path + "/hands/1", data={
        "csrf_token": csrf(html), "mode": "form", "version": "3",
        "banks-0": "100", "banks-1": "100", "banks-2": "100", "banks-3": "100", "finish_order-0": "3"})
    assert resp.status_code == 303, resp.get_data(as_text=True)[:3000]
    table = api_table(client, table_id)
    assert table["hands"][0]["deltas"] == [-50, -50, -50, 150]
    assert table["hands"][1]["banks_before"] == [50, 50, 50, 250]
    assert table["version"] == 4


def test_editing_a_hand_on_a_stale_version_is_saved_when_nobody_else_changed_that_hand(client):
    table_id, edit_path = open_table(client)
    record(client, edit_path, **{"finish_order-0": "1"})
    html = client.get(edit_path + "/hands/1").get_data(as_text=True)
    record(client, edit_path, **{"finish_order-0": "2"})  # version moves on under this phone
    resp = client.post(edit_path + "/hands/1", data={"csrf_token": csrf(html), "mode": "form", "version": "2",
                                                     "finish_order-0": "3"})
    assert resp.status_code == 303
    hands = api_table(client, table_id)["hands"]
    assert [h["input"]["finish_order"] for h in hands] == [[3], [2]]  # both changes kept


def test_a_hand_can_be_edited_as_json_and_bad_json_is_a_message_not_a_crash(client):
    table_id, edit_path = open_table(client)
    record(client, edit_path, **{"finish_order-0": "1"})
    html = client.get(edit_path + "/hands/1").get_data(as_text=True)
    resp = client.post(edit_path + "/hands/1", data={"csrf_token": csrf(html), "mode": "json", "version": "2",
                                                     "raw": "{not json"})
    assert resp.status_code == 400 and "JSON" in resp.get_data(as_text=True)
    resp = client.post(edit_path + "/hands/1", data={"csrf_token": csrf(html), "mode": "json", "version": "2",
                                                     "raw": '{"rounds": [], "finish_order": [0]}'})
    assert resp.status_code == 303
    assert api_table(client, table_id)["totals"] == [150, -50, -50, -50]


# --- CSV and QR -------------------------------------------------------------

def test_csv_export_lists_every_hand_with_running_totals_and_quotes_formula_like_names(client):
    table_id, edit_path = open_table(client, names=["=cmd()", "小红", "老王"])
    record(client, edit_path, **{"players": "3", "finish_order-0": "1"})
    record(client, edit_path, **{"players": "3", "finish_order-0": "1"})
    resp = client.get(f"/tables/{table_id}/export.csv")
    assert resp.status_code == 200 and resp.headers["Content-Type"].startswith("text/csv")
    text = resp.get_data(as_text=True)
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[0][:4] == ["局", "'=cmd()", "小红", "老王"]
    assert rows[1][:7] == ["1", "-50", "100", "-50", "-50", "100", "-50"]
    assert rows[2][:7] == ["2", "-50", "100", "-50", "-100", "200", "-100"]
    assert rows[-1][:4] == ["合计", "-100", "200", "-100"]


def test_the_qr_code_is_an_svg_of_the_read_only_link(client):
    table_id, _ = open_table(client)
    resp = client.get(f"/tables/{table_id}/qr.svg")
    assert resp.status_code == 200 and resp.headers["Content-Type"] == "image/svg+xml"
    assert b"<svg" in resp.data


def test_pages_speak_english_when_asked(client):
    table_id, edit_path = open_table(client)
    client.set_cookie("lang", "en")
    html = client.get(edit_path).get_data(as_text=True)
    assert "Record a hand" in html and "Totals" in html
    assert "Read-only" in client.get(f"/tables/{table_id}").get_data(as_text=True)


# --- the stored input fills the game's form again ----------------------------

FORM_INPUTS = {
    "paodekuai": {"winner": "1", "cards_left": ["3", "0", "5", "2"]},
    "shuangkou": {"finish_order": ["0", "2"], "bombs": [{"seat": "1", "cards": "♠4 ♥4 ♣4 ♦4"},
                                                        {"seat": "2", "lines": "6"}]},
    "q783": {"players": 4, "teams": False, "banks": ["100", "90", "80", "70"],
             "rounds": [{"winner": "0", "cards": "♠Q"}, {"winner": "1", "count": "3"}], "finish_order": ["1"]},
    "hongwu": {"declarer": "0", "bid": "100", "declarer_points": "80", "bottom_points": "10",
               "declarer_took_bottom": True, "red_fives": [{"owner": "1", "captured_by": "2"}]},
    "erqiwang": {"declarer": "0", "bid": "120", "defender_points": "60", "surrender": False,
                 "chongguan": [{"seat": "1", "cards": "大王 大王", "trump": "♥"},
                               {"seat": "2", "jokers": "1", "trump7_pairs": "0", "off7_pairs": "1",
                                "trump2_pairs": "0", "off2_pairs": "0"}]},
}


def _given(value):
    """A payload as a form can give it back: text values, without the blank ones."""
    if isinstance(value, dict):
        return {k: _given(v) for k, v in value.items() if v not in (None, "", [], False)}
    if isinstance(value, list):
        return [_given(v) for v in value]
    return value if isinstance(value, bool) else str(value)


def _form(app, slug, stored):
    from scoring.registry import get_game
    from webapp.schema_forms import form_data, settle_form
    game = get_game(slug)
    return settle_form(game, game.ruleset.resolve({}), 4, data=form_data(game, stored))


@pytest.mark.parametrize("slug", sorted(FORM_INPUTS))
def test_editing_a_hand_fills_the_games_settle_form_with_exactly_its_stored_input(app, slug):
    stored = FORM_INPUTS[slug]
    with app.test_request_context():
        assert _given(_form(app, slug, stored).to_payload()) == _given(stored)


def test_the_settle_form_grows_a_row_for_every_stored_round_and_offers_one_more(app):
    many = {"rounds": [{"winner": 0, "cards": "♠4"}] * 40, "finish_order": [0]}
    with app.test_request_context():
        form = _form(app, "q783", many)
        assert len(form.rows_of("rounds")) == 41
        assert len(_form(app, "q783", {"rounds": 5}).rows_of("rounds")) == 1  # a shape the form cannot hold


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from properties import examples

PAGE_FIELDS = ["finish_order-0", "finish_order-1", "banks-0", "rounds-0-winner", "rounds-0-cards", "rounds-0-count", "teams",
               "version", "mode", "raw", "action", "game", "name_0", "name_1", "name_2", "rules-penalty",
               "rules-preset", "players"]
page_values = st.one_of(st.sampled_from(["", "0", "1", "-3", "100", "♠Q", "x", "on", "json", "form", "refresh",
                                         "{}", "[1]", '{"finish_order": [0]}', "9999999999999", "\x00"]),
                        st.text(max_size=10))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.sampled_from(["", "/undo", "/hands/1", "/hands/1/delete", "/hands/7", "/rotate", "/delete", "new"]),
       data=st.dictionaries(st.sampled_from(PAGE_FIELDS), page_values, max_size=8))
def test_no_ledger_form_input_gives_a_server_error(ledger_app, where, data):
    client = ledger_app.test_client()
    table_id, edit_path = open_table(client)
    record(client, edit_path, **{"finish_order-0": "1"})
    ledger_app.config["WTF_CSRF_ENABLED"] = False
    try:
        url = "/tables/new?game=q783" if where == "new" else edit_path + where
        resp = client.post(url, data=data)
    finally:
        ledger_app.config["WTF_CSRF_ENABLED"] = True
    assert resp.status_code < 500, (where, data, resp.get_data(as_text=True)[-800:])
