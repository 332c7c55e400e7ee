"""No input produces a 500: random JSON at every action of every game, every form field of every page over all
of Unicode, and each cause of a 500 found so far as the rule it now keeps."""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from flask import url_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from properties import examples
from werkzeug.routing import BuildError

from scoring import inputs
from scoring.i18n import t
from scoring.registry import all_games
from webapp import create_app
from webapp.api import error_response

pytestmark = pytest.mark.slow  # every page and form fuzzed: left out of `make check`

FIELDS = ["cards", "play", "previous", "hand", "lead", "trump", "others", "plays", "winner", "cards_left",
          "finish_order", "bombs", "players", "teams", "banks", "rounds", "declarer", "bid", "declarer_points",
          "bottom_points", "declarer_took_bottom", "red_fives", "defender_points", "chongguan", "surrender",
          "rules", "bids", "start"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=False),
                    st.sampled_from(["", "♠A", "7 7 7 7", "大王 小王", "♥5", "S", "abc", "♠", "10", "-5",
                                     "♠Q ♥7 ♥8 ♣3", "preset", "on"]),
                    st.text(max_size=12))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5),
    st.dictionaries(st.sampled_from(FIELDS + ["seat", "lines", "owner", "captured_by", "count", "jokers",
                                              "preset", "decks", "stake"]), inner, max_size=4)),
    max_leaves=12)
payloads = st.dictionaries(st.sampled_from(FIELDS), values, max_size=6)

ROUTES = [(g.slug, a) for g in all_games() for a in g.action_names()]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ROUTES), body=payloads)
def test_no_api_input_gives_a_server_error(client, route, body):
    slug, action = route
    resp = client.post(f"/api/v1/{slug}/{action}", data=json.dumps(body), content_type="application/json")
    assert resp.status_code < 500, (slug, action, body, resp.get_data(as_text=True)[:500])
    if resp.status_code >= 400:
        err = resp.get_json()["error"]
        assert err["code"] and err["message"]


# ---------------------------------------------------------------------------
# Every HTML form: its fields, found on the page and in the declarations, posted over all of Unicode
# ---------------------------------------------------------------------------

#: every code point, lone surrogates and control characters included
ANY_CHARACTER = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())
PLAUSIBLE = ["", "0", "1", "3", "7", "-3", "100", "9999999999999", "♠A ♠A", "大王", "♥Q ♥7 ♥8 ♣3", "pass", "on",
             "y", "paodekuai48", "zhengshangyou108", "tiers_321", "cards", "start", "round", "undo", "finish",
             "next", "reset", "refresh", "add", "{}", "[1]", '{"players": 9}', "\u00b2", "\u00b9", "--1", "+-1",
             "\u0663", "\uff11", "\ud800", "a\udfff", "\\x00", "\x00", "\r\n", "\u202e", "1e400", "NaN"]
form_values = st.one_of(st.sampled_from(PLAUSIBLE), st.text(ANY_CHARACTER, max_size=12))
#: a tampered hidden Q783 tracker state: JSON of any shape, nested deep, or not JSON at all
STATE_KEYS = ["players", "teams", "banks", "names", "rules", "rounds", "finish_order", "winner", "cards", "count"]
json_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**12), form_values),
                           lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                   st.dictionaries(st.sampled_from(STATE_KEYS), inner, max_size=5)),
                           max_leaves=10)
states = st.one_of(st.dictionaries(st.sampled_from(STATE_KEYS), json_values, max_size=7).map(json.dumps),
                   st.sampled_from(["[" * 2000 + "]" * 2000, '{"players": NaN}', '{"players": 1e400}',
                                    '{"players": 4, "teams": false, "rounds": 5}', "null", "\ud800"]),
                   form_values)
NAME = re.compile(r'name="([^"]+)"')
ROW_INDEXES = (0, 1, 3)


def declared_names(game) -> set[str]:
    """Every form field name the settle declaration and the house rules give (rows and seats by index)."""
    names = {f"rules-{o.name}" for o in game.ruleset.options} | {"rules-preset", "action", "state"}
    for f in game.settle_input.fields:
        if isinstance(f, inputs.RowsField):
            names |= {f"{f.name}-{i}-{sub.name}" for i in ROW_INDEXES for sub in f.fields}
        elif isinstance(f, (inputs.PerSeatField, inputs.SeatOrderField)):
            names |= {f"{f.name}-{i}" for i in range(6)}
        else:
            names.add(f.name)
    return names


def page_names(client, url: str) -> tuple[str, set[str]]:
    """Where a page's form posts (after any redirect) and the names of its fields."""
    resp = client.get(url, follow_redirects=True)
    assert resp.status_code == 200, url
    return resp.request.path, set(NAME.findall(resp.get_data(as_text=True))) - {"csrf_token"}


def form_body(data: dict[str, str]) -> bytes:
    """URL-encoded form data as an attacker may send it: a lone surrogate as its raw (invalid UTF-8) bytes."""
    return "&".join(f"{quote(k)}={quote(v.encode('utf-8', 'surrogatepass'))}" for k, v in data.items()).encode()


@pytest.fixture(scope="module")
def form_pages(tmp_path_factory):
    """The app with CSRF off, a ledger table, and every page with a form: (url, field names) each."""
    db = tmp_path_factory.mktemp("forms") / "forms.db"
    app = create_app({"TESTING": True, "SECRET_KEY": "forms", "WTF_CSRF_ENABLED": False,
                      "DATABASE_URL": f"sqlite:///{db}"})
    client = app.test_client()
    created = client.post("/api/v1/tables", json={"game": "q783", "players": ["甲", "乙", "丙", "丁"]}).get_json()
    pages = []
    for game in all_games():
        for tab in game.tabs:
            if tab != "rules":
                path, names = page_names(client, f"/{game.slug}/{tab}")
                pages.append((path, sorted(names | declared_names(game))))
    q783_game = next(g for g in all_games() if g.slug == "q783")
    for url in ("/tables/new?game=shuangkou", created["edit_url"].split("localhost", 1)[-1]):
        path, names = page_names(client, url)
        pages.append((path, sorted(names | declared_names(q783_game) | {"game", "players", "names-0"})))
    for hand in ({"banks": [100] * 4, "rounds": [], "finish_order": [0]}, {"rounds": [], "finish_order": [1]}):
        client.post(f"/api/v1/tables/{created['id']}/hands", json=hand, headers={"X-Edit-Token": created["edit_token"]})
    pages += table_forms(client, created["id"], declared_names(q783_game))
    return client, pages  # the client holds the table's edit cookie, so the edit page's form is reached


#: the table's own forms that end what the fuzz works on (the edit link, the table itself)
ENDING_FORMS = ("/rotate", "/edit/delete")
FORM_ACTION = re.compile(r'<form[^>]*method="post"[^>]*action="([^"]+)"')


def table_forms(client, table_id: str, declared: set[str]) -> list[tuple[str, list[str]]]:
    """Every form a table's pages post to (undo, redo, seats, new evening, a hand's edit, the round
    tracker), each with the field names of its page and the settle declaration's."""
    forms = {}
    for url in (f"/tables/{table_id}/edit", f"/tables/{table_id}/edit/hands/1",
                f"/tables/{table_id}/edit/hands/2/delete", f"/tables/{table_id}/edit/rounds"):
        html = client.get(url).get_data(as_text=True)
        names = set(NAME.findall(html)) - {"csrf_token"}
        for action in FORM_ACTION.findall(html):
            if not action.endswith(ENDING_FORMS):
                forms[action] = forms.get(action, set()) | names | declared
    return [(action, sorted(names)) for action, names in forms.items()]


def test_every_page_with_a_form_is_fuzzed_with_its_row_and_rule_fields(form_pages):
    _, pages = form_pages
    fields = {path: names for path, names in pages}
    assert {"bombs-0-lines", "rules-wild"} <= set(fields["/shuangkou/settle"])
    assert {"rounds-3-cards", "state", "rules-scoring"} <= set(fields["/q783/rounds"])
    assert {"/hongwu/bidding", "/erqiwang/trick", "/paodekuai/hint", "/tables/new"} <= set(fields)
    assert any(path.startswith("/tables/") and path.endswith("/edit") for path in fields)
    table_actions = {path.rsplit("/edit", 1)[-1] for path in fields if "/edit" in path}
    assert {"", "/undo", "/seats", "/new-evening", "/hands/1", "/rounds"} <= table_actions, table_actions


@settings(max_examples=examples(400), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_form_input_gives_a_server_error(form_pages, data):
    client, pages = form_pages
    path, names = data.draw(st.sampled_from(pages))
    chosen = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=10))
    values = {name: data.draw(states if name == "state" else form_values) for name in chosen}
    resp = client.post(path, data=form_body(values), content_type="application/x-www-form-urlencoded")
    assert resp.status_code < 500, (path, values, resp.get_data(as_text=True)[-800:])


# ---------------------------------------------------------------------------
# Every page and answer read by GET: its query parameters, found in the code, over all of Unicode
# ---------------------------------------------------------------------------

WEBAPP = Path(__file__).resolve().parents[2] / "webapp"
QUERY_READ = re.compile(r"""(?:(?:args|values)\.(?:get|getlist)|_query_int)\(\s*["']([\w-]+)["']""")
#: path arguments: each value a URL may carry (a hand number past what a database column holds too)
PATH_VALUES = {"number": [1, 2, 2 ** 31, 2 ** 63], "code": ["en", "zh", "xx"],
               "name": ["pyodide.js", "pyodide.asm.wasm", "package.json", "..", "nothing"],
               "version": ["314.0.8", "0.0.1", ".."]}


def query_names() -> list[str]:
    """Every query parameter the web layer reads by name, and those a page reads by a game's declaration
    (the seats field, the house rules, a preset)."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in WEBAPP.rglob("*.py"))
    declared = {"rules-preset"} | {f"rules-{o.name}" for g in all_games() for o in g.ruleset.options}
    declared |= {g.settle_input.seats_field for g in all_games() if g.settle_input.seats_field}
    return sorted(set(QUERY_READ.findall(source)) | declared)


def get_urls(app, values: dict) -> list[str]:
    """Every GET route but static files, each path argument filled in with each of its values."""
    urls = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if "GET" not in rule.methods or rule.endpoint == "static":
                continue
            options = [dict()]
            for name in sorted(rule.arguments):
                options = [{**o, name: v} for o in options for v in values[name]]
            for option in options:
                try:
                    urls.append(url_for(rule.endpoint, **option))
                except (BuildError, ValueError):  # a game this route does not serve (any(...) says ValueError)
                    pass
    return sorted(set(urls))


@pytest.fixture(scope="module")
def get_pages(tmp_path_factory):
    """The app with a ledger table holding a hand, a function giving a fresh client that holds the
    table's edit cookie (a GET may set cookies: each request starts from the same ones), and every URL."""
    from webapp.ledger.db import db as database
    path = tmp_path_factory.mktemp("gets") / "gets.db"
    app = create_app({"TESTING": True, "SECRET_KEY": "gets", "DATABASE_URL": f"sqlite:///{path}"})
    client = app.test_client()
    created = client.post("/api/v1/tables", json={"game": "q783", "players": ["甲", "乙", "丙"]}).get_json()
    client.post(f"/api/v1/tables/{created['id']}/hands", json={"rounds": [], "finish_order": [0]},
                headers={"X-Edit-Token": created["edit_token"]})
    edit_link = created["edit_url"].split("localhost", 1)[-1]

    def fresh_client():
        fresh = app.test_client()
        fresh.get(edit_link)  # the edit cookie
        return fresh

    circle = client.get(f"/api/v1/tables/{created['id']}").get_json()["circle"]
    values = {"slug": [g.slug for g in all_games()], "table_id": [created["id"]],
              "token": [created["edit_token"]], "circle": [circle, "no-such-circle"], **PATH_VALUES}
    yield fresh_client, get_urls(app, values)
    with app.app_context():
        database.session.remove()
        database.engine.dispose()


def query_string(values: dict[str, str]) -> str:
    return "&".join(f"{quote(k)}={quote(v.encode('utf-8', 'surrogatepass'))}" for k, v in values.items())


def test_the_get_fuzz_reaches_every_page_and_the_parameters_the_code_reads(get_pages):
    _, urls = get_pages
    assert {"v", "n", "lang", "per_point", "trump", "version", "before", "next", "game", "players",
            "rules-decks"} <= set(query_names())
    assert {"/", "/q783/rounds", "/hongwu/trick", "/tables/new", "/api/v1/games"} <= set(urls)
    assert sum("/live" in u for u in urls) == 2 and any(u.endswith(f"/hands/{2 ** 63}") for u in urls)


@pytest.mark.parametrize("value", [*PLAUSIBLE, "1" * 5000, "9" * 20])
def test_no_query_value_gives_a_server_error_on_any_page(get_pages, value):
    """Each plausible value (non-ASCII digits, a lone surrogate, 5,000 digits…) in every parameter at once."""
    fresh_client, urls = get_pages
    every = query_string({name: value for name in query_names()})
    for url in urls:
        resp = fresh_client().get(f"{url}?{every}")
        assert resp.status_code < 500, (url, value, resp.get_data(as_text=True)[-800:])


@settings(max_examples=examples(200), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_query_string_gives_a_server_error_on_any_page(get_pages, data):
    fresh_client, urls = get_pages
    url = data.draw(st.sampled_from(urls))
    values = data.draw(st.dictionaries(st.sampled_from(query_names()), form_values, max_size=6))
    htmx = data.draw(st.booleans())
    resp = fresh_client().get(f"{url}?{query_string(values)}", headers={"HX-Request": "true"} if htmx else {})
    assert resp.status_code < 500, (url, values, resp.get_data(as_text=True)[-800:])


TRACKER_ACTIONS = ["", "start", "round", "undo", "finish", "next", "reset", "refresh"]
TRACKER_FIELDS = ["players", "teams", "winner", "cards", "count", "rules-preset", "rules-scoring", "rules-decks",
                  *(f"{kind}_{i}" for kind in ("name", "bank", "place") for i in range(6))]
VALID_STATE = {"players": 4, "teams": False, "banks": [100, 100, 100, 100], "names": ["", "", "", ""],
               "rules": {}, "rounds": [{"winner": 0, "cards": "♠Q"}], "finish_order": None}


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(state=st.one_of(states, st.dictionaries(st.sampled_from(STATE_KEYS), json_values, max_size=4).map(
           lambda changes: json.dumps({**VALID_STATE, **changes}))),
       action=st.sampled_from(TRACKER_ACTIONS),
       fields=st.dictionaries(st.sampled_from(TRACKER_FIELDS), form_values, max_size=5))
def test_a_tampered_tracker_state_never_gives_a_server_error(form_pages, state, action, fields):
    client, _ = form_pages
    values = {**fields, "state": state, "action": action}
    resp = client.post("/q783/rounds", data=form_body(values),
                                  content_type="application/x-www-form-urlencoded")
    assert resp.status_code < 500, (values, resp.get_data(as_text=True)[-800:])


@pytest.mark.parametrize("change", [{"winner": "\ud800"}, {"names": ["\udfff", "", "", ""]},
                                    {"rules": {"\ud800": 1}}, {"rounds": [{"winner": 0, "cards": "\ud800"}]}])
@pytest.mark.parametrize("action", ["", "round", "finish", "undo", "next"])
def test_a_tracker_state_carrying_a_lone_surrogate_is_dropped_not_a_500(form_pages, change, action):
    client, _ = form_pages
    state = json.dumps({**VALID_STATE, **change})  # ASCII JSON: the surrogate travels as a \ud800 escape
    resp = client.post("/q783/rounds", data={"state": state, "action": action, "winner": "0", "cards": "♠K"})
    assert resp.status_code == 200 and "\\ud8" not in resp.get_data(as_text=True)


@pytest.mark.parametrize("state", ["[" * 2000 + "]" * 2000, '{"players": 4, "teams": false, "rounds": 5}',
                                   '{"players": "x", "teams": false, "rounds": []}', '{"players": NaN}'])
@pytest.mark.parametrize("action", ["undo", "finish", "round", "next"])
def test_a_tracker_state_of_another_shape_is_dropped_not_a_500(form_pages, state, action):
    client, _ = form_pages
    resp = client.post("/q783/rounds", data={"state": state, "action": action, "winner": "0"})
    assert resp.status_code == 200


# ---------------------------------------------------------------------------
# Input safety: each cause of a 500 that was found, as the rule it now keeps
# ---------------------------------------------------------------------------

CALCULATORS = [f"/api/v1/{g.slug}/{a}" for g in all_games() for a in g.action_names()]


def post_raw(client, path: str, raw: bytes | str):
    return client.post(path, data=raw, content_type="application/json", headers={"Accept-Language": "en"})


def test_json_nested_1000_deep_is_a_400_on_every_calculator_endpoint(client):
    deep = '{"rules": ' + "[" * 1000 + "]" * 1000 + "}"
    for path in CALCULATORS:
        resp = post_raw(client, path, deep)
        assert resp.status_code == 400, (path, resp.status_code)
        assert resp.get_json()["error"]["code"] in ("too_deep", "malformed_json")


def test_json_nested_past_the_depth_limit_is_refused_even_when_python_could_parse_it(client):
    resp = post_raw(client, "/api/v1/hongwu/settle", '{"red_fives": ' + "[" * 30 + "]" * 30 + "}")
    assert resp.status_code == 400
    assert resp.get_json()["error"]["code"] == "too_deep"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_a_body_nested_exactly_past_the_limit_is_refused_and_one_at_the_limit_is_not(client, encoding):
    from webapp.api import MAX_DEPTH
    def nested(levels):  # the body object itself is one level
        return ('{"rules": ' + "[" * (levels - 1) + "]" * (levels - 1) + "}").encode(encoding)
    assert post_raw(client, "/api/v1/hongwu/settle", nested(MAX_DEPTH + 1)).get_json()["error"]["code"] == "too_deep"
    assert post_raw(client, "/api/v1/hongwu/settle", nested(MAX_DEPTH)).get_json()["error"]["code"] != "too_deep"


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"])
def test_a_number_that_is_not_finite_is_a_400(client, number):
    resp = post_raw(client, "/api/v1/paodekuai/settle", '{"winner": 0, "cards_left": [0, %s, 3, 4]}' % number)
    assert resp.status_code == 400
    body = resp.get_json()
    assert body["error"]["code"] == "malformed_json" and "finite" in body["error"]["message"]


def test_a_body_that_is_not_utf8_is_a_400(client):
    resp = post_raw(client, "/api/v1/paodekuai/settle", b'{"winner": "\xff\xfe"}')
    assert resp.status_code == 400
    assert resp.get_json()["error"]["code"] == "malformed_json"


SURROGATE_BODIES = [
    ("/api/v1/paodekuai/check", {"play": "♠A \ud800"}),
    ("/api/v1/paodekuai/check", {"play": "\udfff"}),
    ("/api/v1/hongwu/trick", {"trump": "\ud800", "plays": ["♠A", "♠K"]}),
    ("/api/v1/hongwu/trick", {"trump": ["\ud800"], "plays": ["♠A", "♠K"]}),
    ("/api/v1/hongwu/settle", {"declarer": "\ud800", "bid": 100, "declarer_points": 100}),
    ("/api/v1/paodekuai/settle", {"winner": 0, "cards_left": [0, 1, 2, 3], "rules": {"preset": "\ud800"}}),
    ("/api/v1/paodekuai/settle", {"winner": 0, "cards_left": [0, 1, 2, 3], "rules": {"\ud800": 1}}),
    ("/api/v1/paodekuai/settle", {"winner": 0, "cards_left": [0, 1, 2, 3], "rules": {"stake": "\ud800"}}),
    ("/api/v1/hongwu/bidding", {"bids": ["\ud800"]}),
    ("/api/v1/tables", {"game": "\ud800", "players": ["a", "b", "c", "d"]}),
]


@pytest.mark.parametrize("path,body", SURROGATE_BODIES)
def test_a_lone_surrogate_is_quoted_escaped_never_raw_in_an_error(client, path, body):
    resp = post_raw(client, path, json.dumps(body))  # json.dumps writes a surrogate as \\ud800
    assert 400 <= resp.status_code < 500, (path, body, resp.status_code)
    text = resp.get_data(as_text=True)
    assert not any(0xD800 <= ord(c) <= 0xDFFF for c in text)
    assert resp.get_json()["error"]["message"]


def test_a_message_still_holding_a_surrogate_is_escaped_not_a_500(app):
    with app.test_request_context("/api/v1/x"):
        resp, status = error_response("x", t("「{v}」", "“{v}”", v="a\ud800"), 400, "rules.\udfff")
        body = json.loads(resp.get_data())
    assert status == 400
    assert body["error"] == {"code": "x", "message": "「a\\ud800」", "field": "rules.\\udfff"}


@pytest.mark.parametrize("value", ["²", "¹", "--1", "+-1", "٣", "１", "1.0", "1e3", " ", "\x00"])
def test_a_non_ascii_digit_or_a_doubled_sign_in_an_integer_field_is_a_400(client, value):
    resp = client.post("/api/v1/hongwu/settle", json={"declarer": value, "bid": 100, "declarer_points": 100})
    assert resp.status_code == 400, (value, resp.get_json())


@pytest.mark.parametrize("target", ["/%0d%0a", "/a%0aSet-Cookie:x=1", "/%09", "/%5C%5Cevil.example/"])
def test_a_language_switch_back_to_a_target_with_control_characters_or_a_backslash_goes_home(client, target):
    resp = client.get(f"/lang/en?next={target}")
    assert resp.status_code == 302
    assert resp.headers["Location"] == "/"


@settings(max_examples=examples(200), deadline=None, suppress_health_check=list(HealthCheck))
@given(per_point=form_values, lang=st.sampled_from(["zh", "en"]))
def test_no_money_per_point_gives_a_server_error_on_the_settle_up_page_or_api(form_pages, per_point, lang):
    client, pages = form_pages
    table_id = next(path for path, _ in pages if path.endswith("/edit")).split("/")[2]
    query = "per_point=" + quote(per_point.encode("utf-8", "surrogatepass")) + "&lang=" + lang
    for url in (f"/tables/{table_id}/settle-up?{query}", f"/api/v1/tables/{table_id}/settle-up?{query}"):
        resp = client.get(url)
        assert resp.status_code in (200, 400), (url, resp.get_data(as_text=True)[-800:])
