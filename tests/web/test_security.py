"""Security headers and cookies, no inline script or style, the CSRF page, the API's content type, hosts."""
from __future__ import annotations

import json
import re
import urllib.request
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from properties import examples

from scoring.registry import SLUGS
from webapp import create_app
from webapp.serving import deployment_config

REQUIRED_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def assert_security_headers(resp):
    csp = resp.headers.get("Content-Security-Policy", "")
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives.get("frame-ancestors") == "'none'"
    assert directives.get("script-src") == "'self'" and directives.get("style-src") == "'self'"
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    for name, value in REQUIRED_HEADERS.items():
        assert resp.headers.get(name) == value, name
    assert "camera=()" in resp.headers.get("Permissions-Policy", "")


def make_app(tmp_path, **config):
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 't.db'}",
                       **config})


# -- headers and cookies ----------------------------------------------------------------------------------


def test_a_page_carries_the_csp_and_the_security_headers_but_no_hsts_over_http(client):
    resp = client.get("/")
    assert resp.status_code == 200
    assert_security_headers(resp)
    assert "Strict-Transport-Security" not in resp.headers


@pytest.mark.parametrize("method, path, body", [("GET", "/api/v1/games", None),
                                                 ("POST", "/api/v1/q783/classify", {"cards": "♠Q ♥7 ♥8"}),
                                                 ("POST", "/api/v1/q783/settle", {"nonsense": True})])
def test_an_api_answer_carries_the_security_headers(client, method, path, body):
    resp = client.open(path, method=method, json=body)
    assert resp.content_type == "application/json"
    assert_security_headers(resp)


def test_over_https_the_answer_adds_hsts_and_the_session_cookie_is_secure(client):
    resp = client.get("/q783/check", base_url="https://localhost")
    assert resp.headers["Strict-Transport-Security"].startswith("max-age=31536000")
    cookie = resp.headers["Set-Cookie"]
    assert cookie.startswith("session=") and "Secure" in cookie and "SameSite=Lax" in cookie and "HttpOnly" in cookie


def test_the_session_and_language_cookies_are_samesite_lax_and_not_secure_over_http(client):
    session_cookie = client.get("/q783/check").headers["Set-Cookie"]
    lang_cookie = client.get("/lang/en?next=/").headers["Set-Cookie"]
    for cookie in (session_cookie, lang_cookie):
        assert "SameSite=Lax" in cookie and "HttpOnly" in cookie and "Secure" not in cookie


def test_the_language_cookie_is_secure_over_https(client):
    assert "Secure" in client.get("/lang/zh?next=/", base_url="https://localhost").headers["Set-Cookie"]


def test_behind_a_proxy_with_proxy_fix_the_forwarded_https_counts(tmp_path):
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "paiju.example"}
    trusting = make_app(tmp_path, PROXY_FIX=1).test_client()
    resp = trusting.post("/api/v1/tables", json={"game": "q783", "players": ["a", "b", "c"]}, headers=forwarded)
    assert "Strict-Transport-Security" in resp.headers
    assert resp.get_json()["view_url"].startswith("https://paiju.example/")
    naive = make_app(tmp_path).test_client()  # without PROXY_FIX, a client's X-Forwarded-* headers mean nothing
    resp = naive.post("/api/v1/tables", json={"game": "q783", "players": ["a", "b", "c"]}, headers=forwarded)
    assert "Strict-Transport-Security" not in resp.headers
    assert resp.get_json()["view_url"].startswith("http://localhost/")


# -- no inline script or style in any page ---------------------------------------------------------------


class InlineCode(HTMLParser):
    """Collects what a CSP without 'unsafe-inline' would block: inline <script>/<style>, style and on*
    attributes, javascript: URLs."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self.links: list[str] = []
        self._in_script = False
        self._later_script = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "style":
            self.found.append("<style>")
        if tag == "script":
            # a script loaded after the page (templates/_later.html) is an empty element of a type no browser
            # runs, naming its file in data-src: static/pwa.js later adds it with src, as the CSP allows
            later = attrs.get("type") == "paiju/later" and attrs.get("data-src", "").startswith("/static/")
            self._in_script = "src" not in attrs
            if self._in_script and not later:
                self.found.append("<script> without src")
            self._later_script = later
        for name, value in attrs.items():
            if name == "style" or name.startswith("on"):
                self.found.append(f"<{tag} {name}=…>")
            if name in ("href", "src", "action", "formaction") and (value or "").strip().lower().startswith(
                    "javascript:"):
                self.found.append(f"<{tag} {name}=javascript:…>")
        if tag == "a" and attrs.get("href", "").startswith("/"):
            self.links.append(attrs["href"])

    def handle_data(self, data):
        if self._in_script and self._later_script and data.strip():
            self.found.append("<script type=paiju/later> with code in it")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False


def inline_code(html: str) -> InlineCode:
    parser = InlineCode()
    parser.feed(html)
    return parser


def csrf_token(html: str) -> str:
    match = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', html)
    return match.group(1) if match else ""


def _crawl(client, starts, limit=400):
    """Every page reachable by links from ``starts`` (query strings kept, language links skipped)."""
    seen, todo, pages = set(), list(starts), {}
    while todo and len(seen) < limit:
        url = todo.pop()
        if url in seen or url.startswith(("/static/", "/lang/", "/api/")):
            continue
        seen.add(url)
        resp = client.get(url, follow_redirects=True)
        if resp.content_type.startswith("text/html"):
            pages[url] = resp
            todo.extend(href.split("#")[0] for href in inline_code(resp.get_data(as_text=True)).links)
    return pages


def _posted_pages(client):
    """Pages that only a post shows: every game form sent empty and as htmx, a table with a hand."""
    out = {}
    for slug in SLUGS:
        for tab in ("check", "hint", "settle", "trick", "bidding"):
            page = client.get(f"/{slug}/{tab}")
            if page.status_code != 200:
                continue
            data = {"csrf_token": csrf_token(page.get_data(as_text=True))}
            out[f"POST /{slug}/{tab}"] = client.post(f"/{slug}/{tab}", data=data)
            out[f"POST /{slug}/{tab} (htmx)"] = client.post(f"/{slug}/{tab}", data=data, headers={"HX-Request": "true"})
    out["404"] = client.get("/no-such-page")
    return out


def test_no_rendered_page_has_inline_script_or_style_and_every_page_has_the_csp(client):
    table = client.post("/api/v1/tables", json={"game": "q783", "players": ["甲", "乙", "丙", "丁"]}).get_json()
    client.post(f"/api/v1/tables/{table['id']}/hands", json={"rounds": [], "finish_order": [0]},
                headers={"X-Edit-Token": table["edit_token"]})
    starts = ["/", *(urlsplit(table[k]).path for k in ("view_url", "edit_url"))]
    starts += [f"/{slug}/rules?trump=♥" for slug in ("hongwu", "erqiwang")]
    pages = {**_crawl(client, starts), **_posted_pages(client)}
    assert len(pages) > 40 and any("/tables/" in url for url in pages)
    offenders = {}
    for url, resp in pages.items():
        assert "Content-Security-Policy" in resp.headers, url
        found = inline_code(resp.get_data(as_text=True)).found
        if found:
            offenders[url] = found
    assert offenders == {}


def test_the_inline_code_finder_finds_what_the_csp_would_block():
    found = inline_code('<p style="x" onclick="y"><script>1</script><style></style><a href="javascript:z">'
                        '<script src="/static/a.js"></script><script type="paiju/later" data-src="/static/b.js"></script>'
                        '<script type="paiju/later" data-src="/static/c.js">1</script>'
                        '<script type="paiju/later" data-src="https://elsewhere/d.js"></script>').found
    assert found == ["<p style=…>", "<p onclick=…>", "<script> without src", "<style>", "<a href=javascript:…>",
                     "<script type=paiju/later> with code in it", "<script> without src"]


# -- the CSRF failure page ---------------------------------------------------------------------------------

TYPED = {"play": "♠Q ♥7 ♥8 ♣3", "previous": "♠4 ♥4"}


@pytest.fixture
def csrf_app(app):
    app.config["WTF_CSRF_ENABLED"] = True
    return app


@pytest.mark.parametrize("source", [{"Origin": "https://evil.example"}, {"Origin": "null"},
                                    {"Referer": "https://evil.example/paiju"}, {}])
def test_a_csrf_failure_from_another_site_shows_the_typed_values_but_arms_no_form(csrf_app, source):
    resp = csrf_app.test_client().post("/q783/check", data=TYPED, headers=source)
    assert resp.status_code == 400
    html = resp.get_data(as_text=True)
    assert "表单已失效" in html
    assert all(value in html for value in TYPED.values())
    assert 'method="post"' not in html and "csrf_token" not in html


@pytest.mark.parametrize("source", [{"Origin": "http://localhost"}, {"Referer": "http://localhost/q783/check"}])
def test_a_csrf_failure_from_this_site_offers_to_resubmit_with_a_fresh_token(csrf_app, source):
    html = csrf_app.test_client().post("/q783/check", data=TYPED, headers=source).get_data(as_text=True)
    assert 'action="/q783/check"' in html and csrf_token(html)
    assert 'name="play" value="♠Q ♥7 ♥8 ♣3"' in html


def test_a_csrf_failure_whose_origin_names_this_host_on_another_scheme_is_not_rearmed(csrf_app):
    html = csrf_app.test_client().post("/q783/check", data=TYPED, headers={"Origin": "https://localhost"}).get_data(
        as_text=True)
    assert 'method="post"' not in html


# -- the language switch ------------------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["/%0d%0a", "/%0d%0aSet-Cookie:%20x=1", "//evil.example", "/%5Cevil.example",
                                    "/\\evil.example", "https://evil.example/", "%2F%2Fevil.example", "/%09/x"])
def test_the_language_switch_answers_a_redirect_home_for_a_next_that_is_not_a_plain_local_path(client, target):
    resp = client.get(f"/lang/en?next={target}")
    assert resp.status_code == 302
    assert resp.headers["Location"] == "/"


def test_the_language_switch_returns_to_the_page_it_came_from(client):
    resp = client.get("/lang/en?next=/q783/rules%3Fpreset%3Dx")
    assert resp.status_code == 302 and resp.headers["Location"] == "/q783/rules?preset=x"


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(target=st.text(max_size=30))
def test_the_language_switch_never_fails_and_never_leaves_the_site(client, target):
    resp = client.get("/lang/en", query_string={"next": target})
    assert resp.status_code == 302
    location = resp.headers["Location"]
    assert location.startswith("/") and not location.startswith(("//", "/\\"))


# -- the JSON API's content type ----------------------------------------------------------------------------


@pytest.fixture
def table(client):
    return client.post("/api/v1/tables", json={"game": "q783", "players": ["a", "b", "c"]}).get_json()


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                          None])
@pytest.mark.parametrize("method, path", [("POST", "/api/v1/q783/settle"), ("POST", "/api/v1/tables"),
                                          ("POST", "/api/v1/tables/{id}/hands"), ("PUT", "/api/v1/tables/{id}/hands/1")])
def test_a_json_endpoint_refuses_a_body_that_is_not_declared_json_with_415_in_the_error_shape(
        client, table, content_type, method, path):
    headers = {"X-Edit-Token": table["edit_token"]}
    if content_type:
        headers["Content-Type"] = content_type
    resp = client.open(path.format(id=table["id"]), method=method, data=b'{"game": "q783"}', headers=headers)
    assert resp.status_code == 415
    assert resp.get_json() == {"error": {"code": "unsupported_media_type", "message": resp.get_json()["error"]["message"],
                                         "field": None}}
    assert "application/json" in resp.get_json()["error"]["message"]


def test_a_json_endpoint_takes_json_with_a_charset(client):
    resp = client.post("/api/v1/tables", data='{"game": "q783", "players": ["a", "b", "c"]}'.encode(),
                       content_type="application/json; charset=utf-8")
    assert resp.status_code == 201


# -- hosts and generated links ---------------------------------------------------------------------------------


def test_a_host_outside_trusted_hosts_is_refused_with_400_on_pages_and_the_api(tmp_path):
    client = make_app(tmp_path, TRUSTED_HOSTS=["paiju.example"]).test_client()
    for path in ("/", "/api/v1/games", "/no-such-page"):
        assert client.get(path, headers={"Host": "evil.example"}).status_code == 400
    refused = client.get("/api/v1/games", headers={"Host": "evil.example"}).get_json()
    assert refused["error"]["code"] == "bad_request"  # the API's answer keeps the contract's shape
    resp = client.post("/api/v1/tables", json={"game": "q783", "players": ["a", "b", "c"]},
                       headers={"Host": "paiju.example"})
    assert resp.status_code == 201 and resp.get_json()["view_url"].startswith("http://paiju.example/")


def test_with_server_name_every_generated_link_names_that_host_whatever_the_request_said(tmp_path):
    client = make_app(tmp_path, SERVER_NAME="paiju.example", PREFERRED_URL_SCHEME="https").test_client()
    resp = client.post("/api/v1/tables", json={"game": "q783", "players": ["a", "b", "c"]},
                       headers={"Host": "evil.example"})
    assert resp.status_code == 201
    assert resp.get_json()["view_url"].startswith("https://paiju.example/")
    assert resp.get_json()["edit_url"].startswith("https://paiju.example/")


def test_the_deployment_settings_come_from_the_environment():
    config = deployment_config({"TRUSTED_HOSTS": "paiju.example, .paiju.example,", "PROXY_FIX": "1",
                                "PREFERRED_URL_SCHEME": "https", "SERVER_NAME": "paiju.example"})
    assert config["TRUSTED_HOSTS"] == ["paiju.example", ".paiju.example"]
    assert config["PROXY_FIX"] == 1 and config["PREFERRED_URL_SCHEME"] == "https"
    assert config["SERVER_NAME"] == "paiju.example"
    assert "TRUSTED_HOSTS" not in deployment_config({}) and deployment_config({})["PROXY_FIX"] == 0


# -- in a real browser: the CSP blocks nothing the pages need -------------------------------------------------

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation",
  function (e) { window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline")); });
"""


@pytest.mark.browser
def test_in_chromium_htmx_the_card_picker_and_the_trump_select_work_without_a_csp_violation(page, live_server):
    page.add_init_script(RECORD_VIOLATIONS)
    console = []
    page.on("console", lambda msg: console.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.goto(live_server + "/q783/check")
    picker = page.locator(".picker[data-for=play]")
    picker.get_by_role("button", name="选牌").click()
    picker.locator("button.suit[data-suit='♥']").click()
    picker.locator("button.rank[data-rank=Q]").click()
    assert page.locator("#play").input_value() == "♥Q"
    page.locator("form button[type=submit]").first.click()  # an htmx post that swaps the panel
    page.wait_for_selector("#result")
    violations = page.evaluate("window.__cspViolations")
    page.goto(live_server + "/hongwu/rules")
    page.select_option("#trump", "♥")  # the select sends its form by itself (static/app.js)
    page.wait_for_url("**trump=*")
    violations += page.evaluate("window.__cspViolations")
    page.goto(_table_with_a_hand(live_server))  # totals with colour swatches, the chart, the QR code, live polling
    page.wait_for_selector("#live")
    violations += page.evaluate("window.__cspViolations")
    assert violations == [] and console == []


def _table_with_a_hand(base: str) -> str:
    def post(path, body, headers=None):
        request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", **(headers or {})})
        with urllib.request.urlopen(request, timeout=30) as resp:
            return json.load(resp)

    table = post("/api/v1/tables", {"game": "q783", "players": ["甲", "乙", "丙", "丁"]})
    post(f"/api/v1/tables/{table['id']}/hands", {"rounds": [], "finish_order": [0]},
         {"X-Edit-Token": table["edit_token"]})
    return table["edit_url"]


def test_every_route_outside_the_json_apis_that_takes_a_post_checks_the_csrf_token(csrf_app):
    from webapp import JSON_APIS
    client, urls = csrf_app.test_client(), csrf_app.url_map.bind("localhost")
    checked = []
    for rule in csrf_app.url_map.iter_rules():
        if "POST" not in rule.methods or rule.endpoint.rpartition(".")[0] in JSON_APIS:
            continue
        values = {arg: sorted(getattr(rule._converters[arg], "items", [1]))[0] for arg in rule.arguments}  # any: its first
        url = urls.build(rule.endpoint, values)
        resp = client.post(url, data=TYPED)
        assert resp.status_code == 400 and "表单已失效" in resp.get_data(as_text=True), url
        checked.append(rule.endpoint)
    assert {"pages.settle", "live.rounds", "tables.new_table", "tables.undo", "evening.new_evening"} <= set(checked)


def test_the_json_apis_take_a_post_without_a_csrf_token(csrf_app):
    client = csrf_app.test_client()
    assert client.post("/api/v1/paodekuai/settle", json={"winner": 0, "cards_left": [0, 5, 13, 10]}).status_code == 200
    assert client.post("/api/v1/tables", json={"game": "paodekuai", "players": ["甲", "乙", "丙", "丁"]}).status_code == 201


@pytest.mark.parametrize("host", ["a" * 64, "a..b"])
@pytest.mark.parametrize("path", ["/", "/hongwu/rules", "/no-such-page", "/api/v1/games"])
def test_a_host_name_werkzeug_cannot_read_is_a_400_on_pages_and_the_api_never_a_crash(tmp_path, host, path):
    """A label over 63 characters or an empty one: Werkzeug refuses the Host before any URL is matched,
    so a page cannot build its links and gets a plain-text 400 (the test client refuses such a Host
    itself, so the request goes to the WSGI app as a server would send it)."""
    from werkzeug.test import EnvironBuilder, run_wsgi_app
    environ = EnvironBuilder(path=path).get_environ()
    environ["HTTP_HOST"] = host
    body, status, headers = run_wsgi_app(make_app(tmp_path).wsgi_app, environ, buffered=True)
    assert status.startswith("400"), status
    text = b"".join(body).decode()
    if path.startswith("/api/"):
        assert json.loads(text)["error"]["code"] == "bad_request" and "主机名" in text
    else:
        assert headers["Content-Type"].startswith("text/plain") and "主机名" in text


def test_a_response_text_holding_a_lone_surrogate_is_sent_with_it_escaped_however_it_is_set(tmp_path):
    """No UTF-8 carries a lone surrogate: text set whole (made with it, or through ``data``) writes it as
    its escape rather than failing the response."""
    app = make_app(tmp_path)
    made = app.response_class("a\ud800b")
    later = app.response_class()
    later.data = "c\udfff"
    assert (made.get_data(), later.get_data()) == (b"a\\ud800b", b"c\\udfff")
    assert made.content_length == len(b"a\\ud800b")


@pytest.mark.parametrize("name", ["rounds-" + "1" * 5000 + "-winner", "x" * 300])
def test_a_posted_form_field_name_no_form_has_is_a_400_before_any_form_reads_it(tmp_path, name):
    client = make_app(tmp_path, WTF_CSRF_ENABLED=False).test_client()
    resp = client.post("/q783/settle", data={name: "1", "players": "4"})  # a 5,000-digit row: int() refuses it
    assert resp.status_code == 400
    assert client.post("/q783/settle", data={"rounds-12-winner": "1", "players": "4"}).status_code == 200
