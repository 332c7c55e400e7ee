"""Offline mode (issue 29): Paiju serves the Pyodide runtime from its own address, only the runtime's files."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from binding_examples import EXAMPLES
from offline_forms import (
    SHEDDING_HINTS,
    as_entered,
    entered_pairs,
    examples,
    form_pairs,
    page_words,
    pages_without_csrf,
    view_texts,
)
from werkzeug.datastructures import MultiDict

from scoring.registry import all_games, get_game
from webapp import forms, schema_forms
from webapp.offline_page import Posted, answer, form_payload, settle_fields
from webapp.pwa import RUNTIME_DIR

pytestmark = pytest.mark.shared_app


def test_the_runtime_is_served_from_paiju_itself(client):
    assert (RUNTIME_DIR / "pyodide.asm.wasm").is_file(), "run .ci/ensure-pyodide.sh (make pyodide; make test does)"
    resp = client.get("/offline-engine/pyodide/pyodide.asm.wasm")
    assert resp.status_code == 200
    assert resp.get_data()[:4] == b"\0asm"


@pytest.mark.parametrize("name", ["package.json", "VERSION", "..%2F..%2Fpyproject.toml", "nothing.js"])
def test_only_the_runtime_files_are_served(client, name):
    assert client.get(f"/offline-engine/pyodide/{name}").status_code == 404


def test_the_engine_the_phone_runs_is_the_repos_scoring_package_byte_for_byte(client):
    import io
    import zipfile
    from pathlib import Path

    import scoring

    resp = client.get("/offline-engine/scoring.zip")
    assert resp.status_code == 200
    package = Path(scoring.__file__).parent
    repo_files = {f"scoring/{p.relative_to(package).as_posix()}": p.read_bytes()
                  for p in package.rglob("*.py") if "__pycache__" not in p.parts}
    with zipfile.ZipFile(io.BytesIO(resp.get_data())) as archive:
        served = {name: archive.read(name) for name in archive.namelist()}
    assert served == repo_files
    assert "scoring/registry.py" in served


# -- the page glue the phone runs (webapp/offline_page.py): forms read as the server's forms read them ------------

HINTS = [(slug, "hint", payload) for slug, payload in SHEDDING_HINTS]
# inputs the engine refuses: a settle missing what it needs, a play that is not cards, a hint with no hand
REFUSED = [("shuangkou", "settle", {"bombs": [{"seat": 9, "lines": 6}]}),
           ("paodekuai", "settle", {"winner": 0, "cards_left": [0, 99, "x", 3]}),
           ("q783", "check", {"previous": "♠4", "play": "♠X"}),
           ("hongwu", "trick", {"trump": "♠", "plays": ["♠3", "", "♠4"]}),
           ("erqiwang", "hint", {"trump": "♠", "lead": "♠3", "hand": ""})]
CASES = examples() + HINTS + REFUSED


def _settle_post(game):
    """The settle page's reading of the request's form (webapp/pages.py: read once, straight into the schema) and the
    WTForms form it draws back."""
    from flask import request
    post = schema_forms.SettlePost.read(game, request.form, request.args)
    return post, schema_forms.settle_form(game, post.rules, post.seats, posted=post.posted, meta={"csrf": False})


def server_form_payload(app, game, action, pairs):
    """The payload the server's own form (webapp/forms.py, webapp/schema_forms.py) builds from these pairs."""
    with app.test_request_context(f"/{game.slug}/{action}", method="POST", data=MultiDict(pairs)):
        if action != "settle":
            return forms.action_form_class(game, action)(meta={"csrf": False}).payload()
        post, form = _settle_post(game)
        return {**form.to_payload(), "rules": post.rules_given}


@pytest.mark.parametrize(("slug", "action", "payload"), CASES)
def test_the_phone_reads_a_posted_form_as_the_servers_form_does(app, slug, action, payload):
    game = get_game(slug)
    pairs = form_pairs(game, action, payload)
    assert form_payload(game, action, pairs) == server_form_payload(app, game, action, pairs)


@pytest.mark.parametrize(("slug", "action", "payload"), [c for c in CASES if c[1] == "settle"])
def test_the_settle_form_drawn_after_a_post_holds_what_the_server_read_from_it(app, slug, action, payload):
    """The page reads a posted settle form once, straight (not back from its WTForms form): the form it draws
    again, read back as a browser would post it, gives the same payload, house rules included."""
    game = get_game(slug)
    with app.test_request_context(f"/{slug}/settle", method="POST", data=MultiDict(form_pairs(game, action, payload))):
        post, form = _settle_post(game)
        drawn = Posted(schema_forms.form_pairs(form))
        assert settle_fields(form.fields, drawn, form.seats) == form.to_payload()
        from flask import request
        assert forms.rules_payload(forms.rules_form_class(game)(request.form, prefix="rules")) == post.rules_given
def api_reply(client, slug, action, payload, lang):
    resp = client.post(f"/api/v1/{slug}/{action}", json=payload, headers={"Accept-Language": lang})
    return resp.status_code, resp.get_json()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(("slug", "action", "payload"), CASES)
def test_the_phone_answers_a_form_as_the_api_answers_its_payload(app, client, slug, action, payload, lang):
    game = get_game(slug)
    reply = answer(slug, action, form_pairs(game, action, payload), lang)
    status, body = api_reply(client, slug, action, server_form_payload(app, game, action,
                                                                       form_pairs(game, action, payload)), lang)
    if status == 200:
        assert reply["result"] == body
    else:
        assert {k: v for k, v in reply.items() if k != "view"} == body


def test_every_refused_example_is_refused_by_the_api_too(client):
    assert all(api_reply(client, slug, action, payload, "zh")[0] in (400, 422) for slug, action, payload in REFUSED)


# -- what the phone shows is what the server's page shows (scoring/result_view.py, drawn by both) ---------------

@pytest.fixture(scope="module")
def page_client(tmp_path_factory):
    return pages_without_csrf(tmp_path_factory)


ENTERED = [(e.slug, *as_entered(e)) for e in EXAMPLES] + [case for case in REFUSED]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(("slug", "tab", "payload"), ENTERED)
def test_the_phone_shows_the_words_the_servers_page_shows(page_client, slug, tab, payload, lang):
    pairs = entered_pairs(slug, tab, payload)
    reply = answer(slug, tab, pairs, lang)
    page = page_words(page_client, slug, tab, pairs, lang)
    if "result" in reply:
        assert view_texts(reply["view"]) == page.result
        assert page.errors == []
    else:
        assert sorted(view_texts(reply["view"])) == sorted(page.errors)
        assert page.result == []


def test_a_q783_round_with_a_winner_but_no_cards_is_named_in_the_forms_words():
    pairs = entered_pairs("q783", "settle", {"players": 4, "teams": True, "banks": [250] * 4,
                                             "rounds": [{"winner": 0}], "finish_order": [1, 3]})
    messages = view_texts(answer("q783", "settle", pairs, "zh")["view"])
    assert any("第1圈赢的牌" in m or "第1圈赢的是" in m for m in messages), messages
    assert not any("rounds[0]" in m for m in messages), messages


def test_the_phones_hint_explains_the_smallest_play_as_the_page_does():
    for slug, payload in SHEDDING_HINTS:
        texts = view_texts(answer(slug, "hint", form_pairs(get_game(slug), "hint", payload), "zh")["view"])
        assert any(t.startswith("最小管得上的：") for t in texts), (slug, texts)


def test_an_unknown_game_or_action_is_answered_in_words_not_a_crash():
    assert answer("nothing", "settle", [], "en")["error"]["message"] == "no such address"
    assert answer(get_game("q783").slug, "trick", [], "zh")["error"]["code"] == "not_found"


# -- what the switch downloads: /offline-engine/manifest.json ---------------------------------------------------

def test_the_manifest_names_each_file_by_its_version_and_every_file_it_names_is_served(client):
    manifest = client.get("/offline-engine/manifest.json").get_json()
    assert manifest["available"] is True
    bodies = {url: client.get(url) for url in manifest["files"]}
    assert all(resp.status_code == 200 for resp in bodies.values())
    assert bodies[manifest["engine"]].get_data() == client.get("/offline-engine/scoring.zip").get_data()
    assert manifest["engine"].endswith("?v=" + hashlib.sha256(bodies[manifest["engine"]].get_data()).hexdigest()[:12])
    assert manifest["runtime"] == f"/offline-engine/pyodide/{(RUNTIME_DIR / 'VERSION').read_text().strip()}/"
    assert manifest["bytes"] == sum(len(resp.get_data()) for resp in bodies.values())


def test_the_page_glue_the_phone_runs_is_webapp_offline_page_itself(client):
    import webapp.offline_page

    served = client.get(client.get("/offline-engine/manifest.json").get_json()["page"]).get_data()
    assert served == Path(webapp.offline_page.__file__).read_bytes()


def test_a_runtime_address_of_another_release_is_not_found(client):
    assert client.get("/offline-engine/pyodide/0.0.1/pyodide.asm.wasm").status_code == 404
    assert client.get("/offline-engine/pyodide/314.0.8/package.json").status_code == 404


@pytest.mark.parametrize("path", ["/offline-engine/scoring.zip", "/offline-engine/page.py", "/offline-engine/worker.js"])
def test_an_engine_file_asked_for_at_another_versions_address_is_not_found(client, path):
    assert client.get(path + "?v=000000000000").status_code == 404  # a manifest of another server, mid-deploy
    assert client.get(path).status_code == 200


def test_only_the_engines_worker_may_compile_webassembly(client):
    worker = client.get("/offline-engine/worker.js")
    assert "'wasm-unsafe-eval'" in worker.headers["Content-Security-Policy"]
    for page in ("/", "/shuangkou/settle", "/hongwu/check"):
        assert "wasm-unsafe-eval" not in client.get(page).headers["Content-Security-Policy"]


def test_the_kept_pages_are_home_and_every_tab_that_posts_an_engine_action(client):
    pages = client.get("/offline-engine/manifest.json").get_json()["pages"]
    assert pages[0] == "/"
    for game in all_games():
        for tab in ("check", "hint", "settle"):
            assert f"/{game.slug}/{tab}" in pages
    assert not any(page.endswith("/rules") for page in pages)  # the service worker keeps those already
