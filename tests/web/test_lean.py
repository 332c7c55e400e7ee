"""The lean request path: answers made once per language and kept, and gunicorn's start-up (preloaded app,
frozen garbage collector, migrations in the master, fork-safe database engines)."""
from __future__ import annotations

import gc
import io
import json
import os
import re
import runpy
from pathlib import Path
from types import SimpleNamespace

import pytest
from flask import request
from sqlalchemy import inspect, text
from werkzeug.test import EnvironBuilder

from scoring.i18n import LANGS, render, t
from scoring.registry import all_games, get_game
from webapp import create_app
from webapp.api import answer_encoder
from webapp.ledger.db import db

ROOT = Path(__file__).resolve().parents[2]
TOKEN = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"')


def _token(html: str) -> str:
    match = TOKEN.search(html)
    assert match, "the page carries no form token"
    return match.group(1) or match.group(2)


# -- static answers per language ------------------------------------------------------------------------------


def test_the_games_list_is_answered_in_each_language_and_each_answer_stays_the_same(client):
    zh = [client.get("/api/v1/games", headers={"Accept-Language": "zh"}) for _ in range(2)]
    en = [client.get("/api/v1/games", headers={"Accept-Language": "en"}) for _ in range(2)]
    assert zh[0].data == zh[1].data and en[0].data == en[1].data
    assert zh[0].data != en[0].data
    assert zh[0].get_json()["games"][0]["name"].startswith("跑得快")
    assert en[0].get_json()["games"][0]["name"].startswith("Paodekuai")
    assert zh[0].headers["ETag"] == zh[1].headers["ETag"] != en[0].headers["ETag"]


def test_a_kept_answer_is_revalidated_by_its_etag_and_varies_on_what_picks_the_language(client):
    first = client.get("/api/v1/games?lang=en")
    assert first.headers["Cache-Control"] == "public, max-age=300"
    assert {"Accept-Language", "Cookie"} <= {v.strip() for v in first.headers["Vary"].split(",")}
    again = client.get("/api/v1/games?lang=en", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    other = client.get("/api/v1/games?lang=zh", headers={"If-None-Match": first.headers["ETag"]})
    assert other.status_code == 200 and other.data != first.data


def test_the_openapi_document_is_kept_per_language(client):
    zh, en = client.get("/api/v1/openapi.json?lang=zh"), client.get("/api/v1/openapi.json?lang=en")
    assert zh.status_code == en.status_code == 200 and zh.data != en.data
    assert client.get("/api/v1/openapi.json?lang=zh").data == zh.data


def test_a_game_page_is_rendered_per_language_and_url_and_each_stays_the_same(client):
    zh = [client.get("/paodekuai/settle?lang=zh").get_data(as_text=True) for _ in range(2)]
    en = [client.get("/paodekuai/settle?lang=en").get_data(as_text=True) for _ in range(2)]
    five = client.get("/q783/settle?lang=en&players=5").get_data(as_text=True)
    four = client.get("/q783/settle?lang=en&players=4").get_data(as_text=True)
    assert 'lang="zh-CN"' in zh[0] and "结算" in zh[0] and 'lang="en"' in en[0] and "Settle" in en[0]
    assert _without_token(zh[0]) == _without_token(zh[1]) and _without_token(en[0]) == _without_token(en[1])
    assert _without_token(zh[0]) != _without_token(en[0])
    assert five.count('class="seat-row names-row"') == 5 and four.count('class="seat-row names-row"') == 4


def _without_token(html: str) -> str:
    return html.replace(_token(html), "")


def test_a_kept_page_carries_the_form_token_of_the_session_it_answers(app):
    app.config["WTF_CSRF_ENABLED"] = True
    first, second = app.test_client(), app.test_client()
    token_1 = _token(first.get("/q783/check").get_data(as_text=True))
    token_2 = _token(second.get("/q783/check").get_data(as_text=True))  # the kept page
    assert token_1 != token_2
    body = {"play": "♠Q ♥7 ♥8 ♣3", "previous": "♠4 ♥4"}
    assert second.post("/q783/check", data={**body, "csrf_token": token_1}).status_code == 400
    ok = second.post("/q783/check", data={**body, "csrf_token": token_2})
    assert ok.status_code == 200 and "可以出" in ok.get_data(as_text=True)


def test_the_rounds_page_which_shows_the_session_is_not_kept(app):
    from webapp.render import CACHED_PAGES
    assert "live.rounds" not in CACHED_PAGES
    assert {rule.endpoint for rule in app.url_map.iter_rules()} >= CACHED_PAGES


def test_rate_limits_still_count_the_ledger_but_not_the_game_pages(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'l.db'}",
                      "LEDGER_CREATE_LIMIT": "2 per minute"})
    client = app.test_client()
    body = {"game": "q783", "players": ["a", "b", "c"]}
    statuses = [client.post("/api/v1/tables", json=body).status_code for _ in range(3)]
    assert statuses == [201, 201, 429]
    assert all(client.get("/paodekuai/settle").status_code == 200 for _ in range(3))


# -- gunicorn ---------------------------------------------------------------------------------------------------


def _gunicorn_settings() -> dict:
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


@pytest.mark.slow  # processes started: left out of `make check`
def test_gunicorn_builds_the_app_once_in_the_master_and_forks_the_workers_from_it():
    settings = _gunicorn_settings()
    assert settings["preload_app"] is True
    assert callable(settings["when_ready"]) and callable(settings["pre_fork"])


@pytest.mark.slow  # processes started: left out of `make check`
def test_gunicorn_migrates_once_and_answers_each_page_once_in_the_master_then_freezes_it_all_before_forking(tmp_path):
    settings = _gunicorn_settings()
    app = create_app({"SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'g.db'}"})
    server = SimpleNamespace(app=SimpleNamespace(wsgi=lambda: app))
    try:
        gc.unfreeze()
        settings["when_ready"](server)
        assert gc.get_freeze_count() > 0
        gc.unfreeze()
        settings["pre_fork"](server, None)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    assert app.extensions["paiju_db"]["migrated"]
    kept = app.extensions["paiju_pages"].get(("pages.settle", "/paodekuai/settle?", "en", True, False))
    assert kept and "Settle" in "".join(kept)  # the workers inherit the pages answered once in the master
    assert ("games", "zh") in app.extensions["paiju_static_json"]
    with app.app_context():
        assert db.engine.pool.checkedin() == 0  # the master keeps no connection for a worker to inherit
        assert "ledger_tables" in inspect(db.engine).get_table_names()
        db.engine.dispose()


@pytest.mark.slow  # processes started: left out of `make check`
def test_a_forked_worker_opens_its_own_database_connections(tmp_path):
    app = create_app({"SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 'f.db'}"})
    with app.app_context():
        db.session.execute(text("SELECT 1"))
        db.session.remove()
        parent_pool = db.engine.pool
        assert parent_pool.checkedin() == 1
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker
            try:
                fresh = db.engine.pool is not parent_pool and db.engine.pool.checkedin() == 0
                works = db.session.execute(text("SELECT 2")).scalar() == 2
                os.write(write, b"ok" if fresh and works else b"shared")
            finally:
                os._exit(0)
        os.close(write)
        answer = os.read(read, 16)
        os.waitpid(pid, 0)
        os.close(read)
        assert answer == b"ok"
        assert db.engine.pool is parent_pool and parent_pool.checkedin() == 1  # the parent's is untouched
        assert db.session.execute(text("SELECT 3")).scalar() == 3
        db.session.remove()
        db.engine.dispose()


# -- page strings -----------------------------------------------------------------------------------------------


def test_page_strings_are_looked_up_once_per_language_and_keep_jinja_s_formatting(app):
    from flask import render_template_string
    source = "{{ _('结算') }}|{{ _('%(n)s号位名字', n='<b>') }}|{{ _('%(n)s号位', n=2) }}"
    answers = {}
    for lang in ("zh", "en", "zh"):
        with app.test_request_context(f"/?lang={lang}"):
            answers.setdefault(lang, []).append(render_template_string(source))
    assert answers["zh"] == ["结算|&lt;b&gt;号位名字|2号位"] * 2
    assert answers["en"][0].startswith("Settle|") and "&lt;b&gt;" in answers["en"][0] and "<b>" not in answers["en"][0]
    kept = app.extensions["paiju_texts"]
    assert kept["zh"]["结算"] == "结算" and kept["en"]["结算"] == "Settle"


def test_the_tab_names_are_in_the_reader_s_language(client):
    for slug, tab in (("q783", "记圈"), ("hongwu", "谁赢这墩")):
        zh, en = client.get(f"/{slug}/check?lang=zh"), client.get(f"/{slug}/check?lang=en")
        assert f">{tab}</a>" in zh.get_data(as_text=True) and ">结算</a>" in zh.get_data(as_text=True)
        assert tab not in en.get_data(as_text=True) and ">Settle</a>" in en.get_data(as_text=True)


# -- Alembic only to migrate ------------------------------------------------------------------------------------

ALEMBIC_LATE = """
import sys
from webapp import create_app
app = create_app({"SECRET_KEY": "t", "DATABASE_URL": sys.argv[1]})
app.test_client().get("/paodekuai/settle")
assert "alembic" not in sys.modules and "flask_migrate" not in sys.modules, "imported at start"
resp = app.test_client().post("/api/v1/tables", json={"game": "q783", "players": ["a", "b", "c"]})
assert resp.status_code == 201 and "alembic" in sys.modules
"""


@pytest.mark.slow  # processes started: left out of `make check`
def test_alembic_is_imported_only_when_the_ledger_first_needs_its_schema(tmp_path):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", ALEMBIC_LATE, f"sqlite:///{tmp_path / 'a.db'}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.slow  # processes started: left out of `make check`
def test_the_flask_db_commands_still_migrate_by_hand(tmp_path):
    import subprocess
    import sys
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.db'}", "SECRET_KEY": "t"}
    flask = str(Path(sys.executable).parent / "flask")
    upgrade = subprocess.run([flask, "--app", "webapp", "db", "upgrade"], cwd=ROOT, env=env, capture_output=True,
                             text=True, timeout=300)
    assert upgrade.returncode == 0, upgrade.stderr[-2000:]
    current = subprocess.run([flask, "--app", "webapp", "db", "current"], cwd=ROOT, env=env, capture_output=True,
                             text=True, timeout=300)
    assert "(head)" in current.stdout


# -- what every request does once, not again and again ---------------------------------------------------------


SETTLE = "/api/v1/paodekuai/settle"
SETTLE_BODY = {"winner": 0, "cards_left": [0, 5, 13, 10], "rules": {"preset": "paodekuai52"}}


def test_an_api_answer_follows_the_query_then_the_cookie_then_accept_language_each_request_afresh(client):
    def first_step(**kw):
        return client.post(SETTLE, json=SETTLE_BODY, **kw).get_json()["steps"][0]

    assert "号位" in first_step()
    assert first_step(headers={"Accept-Language": "en-GB,en;q=0.8"}).startswith("seat 2")
    assert "号位" in first_step(query_string={"lang": "zh"}, headers={"Accept-Language": "en"})
    client.set_cookie("lang", "en")
    assert first_step().startswith("seat 2")
    assert "号位" in first_step(query_string={"lang": "zh"})


def test_a_request_without_cookies_sets_none_and_a_signed_session_is_still_read(app):
    from flask import session

    @app.get("/test-session-write")
    def write():
        session["seen"] = session.get("seen", 0) + 1
        return str(session["seen"])

    client = app.test_client()
    answer = client.post(SETTLE, json=SETTLE_BODY)
    assert answer.status_code == 200 and "Set-Cookie" not in answer.headers
    assert [client.get("/test-session-write").text for _ in range(3)] == ["1", "2", "3"]
    app.secret_key = "another key"  # a new key: the old cookie no longer verifies, the session starts over
    assert client.get("/test-session-write").text == "1"


def test_a_header_a_response_sets_itself_is_kept_and_the_rest_are_added_once(app):
    @app.get("/test-own-csp")
    def own():
        return "ok", 200, {"content-security-policy": "default-src 'none'"}

    headers = app.test_client().get("/test-own-csp").headers
    assert headers.getlist("Content-Security-Policy") == ["default-src 'none'"]
    assert headers.getlist("X-Frame-Options") == ["DENY"]


def test_a_per_request_after_hook_runs_for_its_own_request_only_and_is_not_kept_after_it(app):
    import weakref

    from flask import after_this_request

    made = []

    @app.get("/test-after/<word>")
    def after(word):
        @after_this_request
        def tag(response):
            response.headers["X-Word"] = word
            return response
        made.append(weakref.ref(tag))
        return word

    client = app.test_client()
    assert [client.get(f"/test-after/{w}").headers["X-Word"] for w in ("a", "b", "c")] == ["a", "b", "c"]
    gc.collect()
    assert [ref() for ref in made] == [None, None, None]  # nothing holds a request's own hook past it


def test_a_plain_view_and_a_bound_method_hook_are_asked_once_whether_they_are_coroutines(app, monkeypatch):
    import flask.app

    class Hooks:
        def before(self):
            return None

    hooks = Hooks()
    app.before_request(hooks.before)

    @app.get("/test-plain")
    def plain():
        return "ok"

    asked = []
    real = flask.app.iscoroutinefunction
    monkeypatch.setattr(flask.app, "iscoroutinefunction", lambda f: asked.append(f) or real(f))
    client = app.test_client()
    assert [client.get("/test-plain").text for _ in range(3)] == ["ok"] * 3
    assert asked.count(plain) == 1 and sum(1 for f in asked if getattr(f, "__func__", None) is Hooks.before) == 1

    async def coroutine():
        return "never run"

    for _ in range(2):  # never taken for a plain function: asked, and wrapped (here: refused), each time
        with pytest.raises(RuntimeError, match="async"):
            app.ensure_sync(coroutine)


def test_a_json_body_in_utf16_reads_as_json_loads_reads_it(client):
    body = json.dumps(SETTLE_BODY).encode("utf-16")
    answer = client.post(SETTLE, data=body, content_type="application/json")
    assert answer.status_code == 200 and answer.get_json()["deltas"] == [87, -5, -52, -30]


class _Input(io.BytesIO):
    """A server's request body that counts how far it was read and can refuse to be read at all."""

    def __init__(self, data: bytes = b"", refuse: bool = False, reset: bool = False):
        super().__init__(data)
        self.refuse, self.reset = refuse, reset

    def _reading(self):
        assert not self.refuse, "the body was read"
        if self.reset:
            raise ConnectionResetError(104, "Connection reset by peer")

    def read(self, size=-1):
        self._reading()
        return super().read(size)

    def readinto(self, buffer):
        self._reading()
        return super().readinto(buffer)


def _served(app, body: bytes, **environ):
    """(status, JSON answer, the input it read) of the settle action given ``body`` and these WSGI environ
    entries, as a server would pass them."""
    built = EnvironBuilder(path=SETTLE, method="POST", content_type="application/json").get_environ()
    built.update({"CONTENT_LENGTH": str(len(body)), "wsgi.input": _Input(body)}, **environ)
    started = []
    chunks = app(built, lambda status, headers, exc_info=None: started.append(status))
    answer = b"".join(chunks)
    getattr(chunks, "close", lambda: None)()
    return int(started[0].split()[0]), json.loads(answer), built["wsgi.input"]


#: a server that ends the body itself (gunicorn), and one whose input is the socket (werkzeug's development server)
SERVERS = pytest.mark.parametrize("server", [{"wsgi.input_terminated": True}, {}], ids=["terminated", "socket"])


@SERVERS
def test_a_body_is_read_to_its_given_length_and_no_further(app, server):
    body = json.dumps(SETTLE_BODY).encode()
    status, out, given = _served(app, body, **server, **{"wsgi.input": _Input(body + b"GET / HTTP/1.1")})
    assert status == 200 and out["deltas"] == [87, -5, -52, -30]
    assert given.tell() == len(body)  # the next request's bytes, on a kept-alive socket, left to it


@SERVERS
def test_a_body_longer_than_the_limit_is_a_413_before_any_of_it_is_read(app, server):
    length = app.config["MAX_CONTENT_LENGTH"] + 1
    status, out, _ = _served(app, b"", CONTENT_LENGTH=str(length), **server, **{"wsgi.input": _Input(refuse=True)})
    assert status == 413 and out["error"]["code"] == "too_large"


@SERVERS
def test_a_body_that_ends_before_its_given_length_is_a_400_not_a_wait_for_more(app, server):
    status, out, _ = _served(app, b'{"winner": 0}', CONTENT_LENGTH="1000", **server)
    assert status == 400 and out["error"]["code"] == "bad_request"


@SERVERS
def test_a_connection_reset_while_the_body_arrives_is_a_400_not_a_crash(app, server):
    status, out, _ = _served(app, b'{"winner": 0}', **server, **{"wsgi.input": _Input(b"{", reset=True)})
    assert status == 400 and out["error"]["code"] == "bad_request"


def test_a_body_with_a_given_length_is_read_at_once_not_through_werkzeug_s_stream(app):
    with app.test_request_context(SETTLE, method="POST", data=b'{"winner": 0}', content_type="application/json"):
        assert isinstance(request.stream, io.BytesIO) and request.get_json() == {"winner": 0}


def test_a_length_that_is_not_a_number_reads_as_an_empty_body_as_werkzeug_reads_it(app):
    status, out, given = _served(app, json.dumps(SETTLE_BODY).encode(), CONTENT_LENGTH="lots")
    assert status == 400 and out["error"]["code"] == "malformed_json" and given.tell() == 0


def test_a_chunked_body_with_no_length_is_still_read_through_the_server_s_terminated_input(app):
    body = json.dumps(SETTLE_BODY).encode()
    chunked = {"CONTENT_LENGTH": "", "HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input_terminated": True}
    status, out, _ = _served(app, body, **chunked)
    assert status == 200 and out["deltas"] == [87, -5, -52, -30]


#: form pages, two of them one URL apart by a query: each is kept under its own URL
FORM_PAGES = ["/paodekuai/settle", "/q783/settle", "/q783/settle?players=5", "/hongwu/hint", "/shuangkou/check"]


def test_a_kept_form_page_is_what_a_fresh_render_gives_but_for_each_sessions_own_token(app, tmp_path):
    fresh_app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'f.db'}"})
    fresh_app.jinja_env.auto_reload = True  # nothing kept: every page rendered afresh
    for an_app in (app, fresh_app):
        an_app.config["WTF_CSRF_ENABLED"] = True

    def page_and_token(client, url):
        html = client.get(url).get_data(as_text=True)
        token = _token(html)
        return html.replace(token, "TOKEN"), token

    first, second, fresh = app.test_client(), app.test_client(), fresh_app.test_client()
    for url in FORM_PAGES:
        page_1, token_1 = page_and_token(first, url)
        kept, token_2 = page_and_token(second, url)
        assert token_1 != token_2
        assert kept == page_1 == page_and_token(fresh, url)[0], url


def test_a_game_action_answers_compact_json_with_its_texts_in_the_language_and_indented_in_debug(app):
    body = {"winner": 0, "cards_left": [0, 5, 13, 10]}
    answer = app.test_client().post("/api/v1/paodekuai/settle", json=body, headers={"Accept-Language": "en"})
    text = answer.get_data(as_text=True)
    assert answer.mimetype == "application/json" and text.endswith("}\n") and ": " not in text.split('"steps"')[0]
    steps = answer.get_json()["steps"]
    assert all(isinstance(step, str) for step in steps) and "seat 1 went out first and collects 87" in steps
    app.debug = True
    for lang in ("en", "zh"):  # English was answered compact above: its kept encoder must not serve a debug app
        debugged = app.test_client().post("/api/v1/paodekuai/settle", json=body, headers={"Accept-Language": lang})
        assert '\n  "' in debugged.get_data(as_text=True), lang


def test_a_game_action_follows_the_app_s_json_settings_when_they_change_after_its_first_answer(app):
    def answer() -> str:
        body = {"winner": 0, "cards_left": [0, 5, 13, 10]}
        return app.test_client().post("/api/v1/paodekuai/settle", json=body).get_data(as_text=True)

    first = answer()
    assert list(json.loads(first)) == ["deltas", "steps", "dealt"] and "先出完" in first
    app.json.sort_keys, app.json.ensure_ascii = True, True  # encoders kept for the old settings must not answer
    again = answer()
    assert list(json.loads(again)) == ["dealt", "deltas", "steps"] and "先出完" not in again and "\\u5148" in again
    assert json.loads(again) == json.loads(first)


def _standard_answer(value, lang: str, sort_keys: bool = False, debug: bool = False) -> bytes:
    """What the standard library writes for an answer: its texts rendered, UTF-8, compact (indented in
    debug), a newline."""
    layout = {"indent": 2} if debug else {"separators": (",", ":")}
    return (json.dumps(render(value, lang), ensure_ascii=False, sort_keys=sort_keys, **layout) + "\n").encode()


@pytest.mark.parametrize("sort_keys, debug", [(False, False), (True, False), (False, True)],
                         ids=["compact", "sorted keys", "debug indent"])
def test_every_worked_example_is_answered_byte_for_byte_as_the_standard_library_writes_it(app, sort_keys, debug):
    app.json.sort_keys, app.debug = sort_keys, debug
    compared = 0
    with app.app_context():
        for slug, examples in ((g.slug, g.examples) for g in all_games()):
            game = get_game(slug)
            for action, _title, payload in examples:
                answers = [game.run(action, payload)]
                if {"play", "previous"} <= payload.keys():  # a shedding check: the hint for its play as the hand
                    answers.append(game.run("hint", {"hand": payload["play"], "previous": payload["previous"],
                                                     "rules": payload.get("rules", {})}))
                for lang in LANGS:
                    for answer in answers:
                        expected = _standard_answer(answer, lang, sort_keys, debug)
                        assert answer_encoder(app, lang)(answer) == expected, (slug, payload)
                        compared += 1
    assert compared >= 60


def test_an_answer_orjson_refuses_is_written_by_the_standard_library_instead(app):
    value = {"past 64 bits": 2 ** 70, "reason": t("多{n}", "{n} more", n=2 ** 70)}
    not_a_string_key = {1: "one", "label": t("一", "one")}
    with app.app_context():
        assert answer_encoder(app, "en")(value) == _standard_answer(value, "en")
        assert answer_encoder(app, "zh")(not_a_string_key) == b'{"1":"one","label":"\xe4\xb8\x80"}\n'
        with pytest.raises(TypeError, match="^Object of type set is not JSON serializable$") as raised:
            answer_encoder(app, "en")({"cards": {1, 2}})  # neither writes a set: the standard library's error
        assert raised.value.__context__ is None


def test_an_answer_holding_a_lone_surrogate_is_valid_json_with_its_escape_not_a_failure(app):
    with app.app_context():
        written = answer_encoder(app, "en")({"label": t("甲{x}", "a{x}", x="\ud800"), "raw": "b\udfff"})
    assert written == b'{"label":"a\\ud800","raw":"b\\udfff"}\n'
    assert json.loads(written) == {"label": "a\ud800", "raw": "b\udfff"}
