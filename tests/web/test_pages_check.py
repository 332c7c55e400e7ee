"""The check page: the table's play may have several readings (双扣 wild jokers); the player picks one."""
from __future__ import annotations

import re


def _text(resp):
    return re.sub(r"\s+", " ", resp.get_data(as_text=True))


def test_check_page_offers_every_reading_of_a_wild_table_play(app):
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    html = _text(client.post("/shuangkou/check", data={"previous": "6 7 8 9 大王", "play": "6 7 8 9 10"}))
    assert 'name="previous_reading"' in html
    assert "6 7 8 9 10（王当 10）" in html and "5 6 7 8 9（王当 5）" in html
    assert "不能出" in html  # read as its largest, 6-10, the play does not beat it


def test_picking_the_smaller_reading_of_the_table_changes_the_verdict(app):
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    html = _text(client.post("/shuangkou/check", data={"previous": "6 7 8 9 大王", "play": "6 7 8 9 10",
                                                       "previous_reading": "1"}))
    assert "✓" in html and "可以出" in html


def test_check_page_lists_all_readings_of_a_lead(app):
    app.config["WTF_CSRF_ENABLED"] = False
    html = _text(app.test_client().post("/shuangkou/check", data={"play": "6 7 8 9 大王"}))
    assert "这手牌的所有读法" in html


def test_bidding_tab_names_the_declarer_of_a_finished_bidding(app):
    app.config["WTF_CSRF_ENABLED"] = False
    html = _text(app.test_client().post("/erqiwang/bidding",
                                        data={"start": "0", "bids": "80 75 pass 70 pass pass"}))
    assert "庄家：4号位，70分" in html  # the bid of seat value 3, read as 4号位


def test_bidding_tab_names_the_first_illegal_bid(app):
    app.config["WTF_CSRF_ENABLED"] = False
    html = _text(app.test_client().post("/hongwu/bidding", data={"start": "1", "bids": "60 90"}))
    assert "叫分不合规" in html and "第2项" in html and "90" in html


def test_bidding_tab_exists_only_for_trick_games(client):
    assert client.get("/hongwu/bidding").status_code == 200
    assert client.get("/paodekuai/bidding").status_code == 404


def test_page_errors_use_the_forms_words_not_api_field_paths(app):
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    html = _text(client.post("/q783/settle", data={"players": "4", "rounds-0-winner": "1",
                                                   "rounds-0-cards": "♠5 ♥5", "finish_order-0": "2"}))
    assert "第1圈赢的牌" in html and "rounds[0]" not in html
    client.get("/lang/en")
    html = _text(client.post("/q783/settle", data={"players": "4", "rounds-0-winner": "1",
                                                   "rounds-0-cards": "♠5 ♥5", "finish_order-0": "2"}))
    assert "winning play of round 1" in html and "rounds[0]" not in html


def test_api_errors_keep_the_api_field_paths(api):
    _, out = api("q783/settle", {"players": 4, "rounds": [{"winner": 1, "cards": "♠5 ♥5"}], "finish_order": [2]})
    assert "rounds[0].cards" in out["error"]["message"] and out["error"]["field"] == "rounds[0].cards"


def test_trick_page_refuses_an_empty_box_between_plays_at_that_box(app):
    app.config["WTF_CSRF_ENABLED"] = False
    html = _text(app.test_client().post("/hongwu/trick", data={"trump": "♠", "play0": "♣K", "play1": "",
                                                              "play2": "♣A"}))
    assert 'id="result"' not in html
    box = html[html.index('id="play1"'):html.index('id="play2"')]
    assert "没有填写牌" in box


def test_a_settle_form_shows_every_error_at_once_on_its_own_field_and_keeps_what_was_typed(app):
    app.config["WTF_CSRF_ENABLED"] = False
    html = app.test_client().post("/hongwu/settle", data={"declarer": "0", "bid": "63", "declarer_points": "abc",
                                                          "bottom_points": "7"}).get_data(as_text=True)
    bid = html[html.index('id="bid"'):html.index('id="declarer_points"')]
    points = html[html.index('id="declarer_points"'):html.index('id="bottom_points"')]
    assert "只能是5的倍数，例如60或65" in bid and 'value="63"' in bid
    assert "应为整数" in points and 'value="abc"' in points
    assert "「底牌分」为7" in html[html.index('id="bottom_points"'):]
    assert "bid" not in _text_of_errors(html) and "declarer_points" not in _text_of_errors(html)


def _text_of_errors(html: str) -> str:
    import re
    return " ".join(re.findall(r'class="error[^"]*"[^>]*>([^<]*)<', html))


def test_a_settle_form_offers_one_more_row_when_asked_without_javascript(app):
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    html = client.post("/shuangkou/settle", data={"bombs-0-seat": "1", "bombs-0-lines": "5", "bombs-1-seat": "2",
                                                   "bombs-1-lines": "6", "action": "add:bombs"}).get_data(as_text=True)
    assert 'name="bombs-2-seat"' in html and 'name="bombs-3-seat"' not in html
    assert 'id="result"' not in html  # asking for a row is not a submission
