"""The app skeleton: pages, language, CSRF, htmx partials and the API's error shape."""
from __future__ import annotations

import re

import pytest

from scoring.registry import SLUGS


def test_home_lists_all_five_games_in_chinese_by_default(client):
    html = client.get("/").get_data(as_text=True)
    for name in ("跑得快", "双扣", "Q783", "红五", "二七王"):
        assert name in html
    assert 'lang="zh-CN"' in html


def test_language_switch_is_remembered_by_a_cookie(client):
    resp = client.get("/lang/en?next=/")
    assert resp.status_code == 302 and resp.headers["Location"].endswith("/")
    html = client.get("/").get_data(as_text=True)
    assert "Paiju: scoring, play checks and rules" in html
    client.get("/lang/zh?next=/")
    assert "牌局：五种地方牌戏" in client.get("/").get_data(as_text=True)


def test_language_switch_never_redirects_off_site(client):
    resp = client.get("/lang/en?next=https://evil.example/")
    assert resp.headers["Location"] == "/"


def test_every_link_on_every_page_leads_somewhere(client):
    """No dead links: crawl the home page, the game tabs and what they link to."""
    seen, todo = set(), ["/"]
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        resp = client.get(url)
        assert resp.status_code in (200, 302), url
        if resp.status_code == 302 or not resp.content_type.startswith("text/html"):
            continue
        for href in re.findall(r'href="(/[^"#]*)"', resp.get_data(as_text=True)):
            href = href.replace("&amp;", "&")
            if not href.startswith(("/static/", "/lang/", "/api/")):
                todo.append(href)
    for slug in SLUGS:
        assert f"/{slug}/rules" in seen


@pytest.mark.parametrize("slug", SLUGS)
def test_each_game_has_four_tabs_that_answer(client, slug):
    for tab in ("rules", "check", "hint", "settle"):
        assert client.get(f"/{slug}/{tab}").status_code == 200


def test_unknown_page_is_a_friendly_404(client):
    resp = client.get("/no-such-page")
    assert resp.status_code == 404
    assert "找不到这个页面" in resp.get_data(as_text=True)


def test_form_post_from_this_site_without_csrf_token_is_refused_but_keeps_the_input_to_resubmit(app):
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    resp = client.post("/q783/check", data={"play": "♠Q ♥7 ♥8 ♣3", "previous": "♠4 ♥4"},
                       headers={"Origin": "http://localhost"})
    assert resp.status_code == 400
    html = resp.get_data(as_text=True)
    assert "表单已失效" in html
    assert 'name="play" value="♠Q ♥7 ♥8 ♣3"' in html and 'name="previous" value="♠4 ♥4"' in html
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    again = client.post("/q783/check", data={"csrf_token": token, "play": "♠Q ♥7 ♥8 ♣3", "previous": "♠4 ♥4"})
    assert again.status_code == 200 and "可以出" in again.get_data(as_text=True)


def test_csrf_token_never_expires_during_an_evening(app):
    assert app.config["WTF_CSRF_TIME_LIMIT"] is None


def test_pages_vary_on_hx_request(client):
    resp = client.get("/")
    assert "HX-Request" in resp.headers.get("Vary", "")


def test_api_unknown_path_is_404_in_error_shape(api):
    status, body = api("no/such/thing", {})
    assert status == 404
    assert set(body["error"]) == {"code", "message", "field"}


def test_api_unknown_game_is_404_in_error_shape(api):
    status, body = api("mahjong/check", {})
    assert status == 404 and body["error"]["code"] == "not_found"


def test_api_wrong_method_is_405_in_error_shape(api):
    status, body = api("games", {}, method="POST")
    assert status == 405 and body["error"]["code"] == "method_not_allowed"


def test_api_malformed_json_is_400_in_error_shape(client):
    resp = client.post("/api/v1/q783/settle", data="{not json", content_type="application/json")
    assert resp.status_code == 400
    assert resp.get_json()["error"]["code"] == "malformed_json"


def test_api_non_object_json_is_400(client):
    resp = client.post("/api/v1/q783/settle", json=[1, 2])
    assert resp.status_code == 400


def test_api_errors_speak_english_when_asked(api):
    status, body = api("mahjong/check", {}, lang="en")
    assert "there is no game" in body["error"]["message"]
    status, body = api("mahjong/check", {})
    assert "没有" in body["error"]["message"]


def test_games_endpoint_lists_all_five_games(api):
    status, body = api("games", method="GET")
    assert status == 200
    assert [g["slug"] for g in body["games"]] == list(SLUGS)
    for g in body["games"]:
        assert {"slug", "name", "presets", "options"} <= set(g)


def test_api_answers_a_chinese_first_browser_in_chinese(api):
    _, body = api("mahjong/check", {}, headers={"Accept-Language": "zh-CN,en;q=0.5"})
    assert "没有" in body["error"]["message"]
    _, body = api("mahjong/check", {}, headers={"Accept-Language": "en-GB,zh;q=0.5"})
    assert "there is no game" in body["error"]["message"]
    _, body = api("mahjong/check", {}, headers={"Accept-Language": "fr"})
    assert "没有" in body["error"]["message"]


def test_api_switches_must_be_json_booleans(api):
    status, out = api("q783/settle", {"players": 4, "teams": "yes", "rounds": [], "finish_order": [0, 2]})
    assert status == 400 and out["error"]["field"] == "teams" and "yes" in out["error"]["message"]
    status, out = api("hongwu/settle", {"declarer": 0, "bid": 100, "declarer_points": 120, "bottom_points": 15,
                                        "declarer_took_bottom": "no", "red_fives": []})
    assert status == 400 and out["error"]["field"] == "declarer_took_bottom"


def test_without_a_secret_key_each_instance_makes_and_keeps_its_own(tmp_path):
    from types import SimpleNamespace

    from webapp import _instance_secret
    instance = SimpleNamespace(instance_path=str(tmp_path / "instance"))
    first = _instance_secret(instance)
    assert len(first) == 64 and first == _instance_secret(instance)
    assert (tmp_path / "instance" / "secret_key").read_text() == first
    other = _instance_secret(SimpleNamespace(instance_path=str(tmp_path / "elsewhere")))
    assert other != first
