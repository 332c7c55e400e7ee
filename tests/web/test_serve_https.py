"""`make serve-https` (issue 40): Caddy with its local CA (TLS=internal) in front of gunicorn, on loopback ports,
under a name that is not localhost (paiju.test, which the test's HTTPS client and Chromium's host-resolver rules
send to 127.0.0.1). Through the real proxy: http redirects to https, the app knows it is behind https (HSTS,
Secure cookies, https links for its own name) and a 360 px phone gets what plain http lacked: a service worker in
control, the manifest, the offline switch, the wake lock, one-tap copy, a table page reloaded with no signal, and
offline mode turned on (its engine loaded through Caddy, the runtime passed on precompressed) answering a game's
form with no signal as the server does.
Caddy's certificates live in a temporary folder (XDG_DATA_HOME), never under $HOME."""
from __future__ import annotations

import base64
import gzip
import hashlib
import http.client
import json
import os
import socket
import ssl
import subprocess
import time
from pathlib import Path
from types import SimpleNamespace

import brotli
import pytest
from offline_forms import examples
from offline_helpers import READY, answer_offline, shown_deltas, turn_on_offline_mode
from page_waits import wait_until
from test_serving import ROOT, _free_port, _stop, _wait_until_listening

from webapp.pwa import RUNTIME_DIR

pytestmark = [pytest.mark.slow, pytest.mark.browser]

HOST = "paiju.test"
KEPT = "caches.open('paiju-tables').then(cache => cache.match(location.href)).then(Boolean)"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """`TLS=internal make serve-https` on free loopback ports: its ports, its log and Caddy's root certificate."""
    folder = tmp_path_factory.mktemp("https")
    ports = SimpleNamespace(https=_free_port(), http=_free_port(), app=_free_port())
    env = {**os.environ, "DOMAIN": HOST, "TLS": "internal", "HTTPS_PORT": str(ports.https),
           "HTTP_PORT": str(ports.http), "BIND": f"127.0.0.1:{ports.app}", "WEB_CONCURRENCY": "2",
           "SECRET_KEY": "https-test", "DATABASE_URL": f"sqlite:///{folder / 'paiju.db'}",
           "XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder / "config")}
    log = folder / "serve-https.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(["make", "--no-print-directory", "-o", ".venv/.installed", "serve-https"], cwd=ROOT,
                                env=env, stdout=out, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        _wait_until_listening(ports.app, proc, log)
        _wait_until_listening(ports.https, proc, log)
        root = folder / "data/caddy/pki/authorities/local/root.crt"
        yield SimpleNamespace(ports=ports, root=root, base=f"https://{HOST}:{ports.https}",
                              answer=first_answer(ports.https, root, proc, log))
    finally:
        _stop(proc)


class _ToTheName(http.client.HTTPSConnection):
    """An HTTPS connection to 127.0.0.1 that asks for, and checks the certificate of, paiju.test."""

    def connect(self):
        sock = socket.create_connection(("127.0.0.1", self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=HOST)


def https(port: int, root: Path, method: str, path: str, body=None, headers=None):
    """(status, headers, body) of one request over HTTPS, Caddy's certificate checked against its root."""
    conn = _ToTheName(HOST, port, timeout=30, context=ssl.create_default_context(cafile=str(root)))
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={**({"Content-Type": "application/json"} if data else {}),
                                                       **(headers or {})})
        resp = conn.getresponse()
        return resp.status, resp.headers, resp.read()
    finally:
        conn.close()


def first_answer(port: int, root: Path, proc, log: Path, seconds: float = 90):
    """The home page through Caddy, once its local CA has made the certificate and gunicorn answers."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"make serve-https exited with {proc.returncode}: {log.read_text()}")
        try:
            if root.is_file():
                answer = https(port, root, "GET", "/")
                if answer[0] == 200:
                    return answer
        except (OSError, ssl.SSLError):
            pass
        time.sleep(0.2)
    raise AssertionError(f"make serve-https never answered: {log.read_text()}")


def test_http_redirects_to_https_on_the_https_port(site):
    conn = http.client.HTTPConnection("127.0.0.1", site.ports.http, timeout=30)
    conn.request("GET", "/tables/new", headers={"Host": f"{HOST}:{site.ports.http}"})
    resp = conn.getresponse()
    assert resp.status in (301, 308) and resp.headers["Location"] == f"{site.base}/tables/new"
    conn.close()


def test_the_app_behind_caddy_sends_hsts_secure_cookies_and_https_links(site):
    status, headers, _ = site.answer
    assert headers["Strict-Transport-Security"] == "max-age=31536000" and headers["Server"] == "Caddy"
    status, headers, _ = https(site.ports.https, site.root, "GET", "/lang/en?next=/")
    assert status == 302 and "; Secure" in headers["Set-Cookie"]
    status, _, body = https(site.ports.https, site.root, "POST", "/api/v1/tables",
                            {"game": "q783", "players": ["甲", "乙", "丙"]})
    assert status == 201 and json.loads(body)["edit_url"].startswith(f"{site.base}/tables/")


def spki_hash(certificate: Path) -> str:
    """The base64 SHA-256 of a certificate's public key, as Chromium's --ignore-certificate-errors-spki-list
    takes it."""
    key = subprocess.run(["openssl", "x509", "-in", str(certificate), "-noout", "-pubkey"],
                         capture_output=True, check=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=key,
                         capture_output=True, check=True).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


@pytest.fixture(scope="module")
def phone(site, launch_browser, phone_options):
    """One 360 px phone for the module; the browser sends paiju.test to 127.0.0.1 and trusts the certificates
    of Caddy's local CA (by its intermediate's public key, which the site sends): a page without certificate
    errors, as a phone that installed the CA's root sees it. Granting the clipboard denies whatever is not
    granted with it: the wake lock is granted too."""
    browser = launch_browser(f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
                             f"--ignore-certificate-errors-spki-list={spki_hash(site.root.with_name('intermediate.crt'))}")
    context = browser.new_context(**{**phone_options, "service_workers": "allow"})  # it checks the worker controls the page
    context.grant_permissions(["clipboard-read", "clipboard-write", "screen-wake-lock"], origin=site.base)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield SimpleNamespace(page=page, context=context)
    browser.close()


def test_over_https_the_service_worker_controls_the_page_and_the_manifest_is_linked(site, phone):
    page = phone.page
    page.goto(site.base + "/")
    assert page.evaluate("window.isSecureContext") is True
    assert page.locator("[data-insecure-note]").is_hidden()
    page.locator("#offline-engine").wait_for()
    assert page.locator("#offline-engine input").is_enabled()
    manifest = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
    assert manifest["display"] == "standalone" and {"192x192", "512x512"} <= {i["sizes"] for i in manifest["icons"]}
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    if not page.evaluate("navigator.serviceWorker.controller !== null"):  # the first page loaded before the claim
        page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")


def test_a_table_page_keeps_the_screen_on_copies_in_one_tap_and_reloads_with_no_signal(site, phone):
    page, context = phone.page, phone.context
    _, _, body = https(site.ports.https, site.root, "POST", "/api/v1/tables",
                       {"game": "q783", "players": ["甲", "乙", "丙"]})
    page.goto(json.loads(body)["edit_url"])
    page.locator("[data-wake-lock][data-state]").wait_for(state="attached")
    assert page.locator("[data-wake-lock]").get_attribute("data-state") == "held"
    assert page.locator("[data-wake-lock-switch]").is_checked()
    share = page.locator("details.share.join")
    share.locator("summary").click()
    button = share.locator("button[data-copy]").first
    button.click()
    share.locator(".copied.ok").first.wait_for()
    link = page.locator(button.get_attribute("data-copy")).input_value()
    assert link.startswith(site.base) and page.evaluate("navigator.clipboard.readText()") == link
    wait_until(page, KEPT, tries=300)
    context.set_offline(True)
    page.reload()
    assert page.locator("html").get_attribute("data-offline-at") and "甲" in page.locator(".players").inner_text()
    context.set_offline(False)


@pytest.mark.parametrize(("accepted", "coding", "unpack"), [("gzip, deflate, br, zstd", "br", brotli.decompress),
                                                            ("gzip, deflate", "gzip", gzip.decompress)])
def test_caddy_passes_the_precompressed_runtime_on_as_gunicorn_sends_it(site, accepted, coding, unpack):
    """The WebAssembly goes in the smallest encoding the phone accepts, the file .ci/ensure-pyodide.sh packed,
    byte for byte: Caddy's own compression neither packs it again nor unpacks it."""
    _, _, body = https(site.ports.https, site.root, "GET", "/offline-engine/manifest.json")
    wasm = json.loads(body)["runtime"] + "pyodide.asm.wasm"
    packed = RUNTIME_DIR / f"pyodide.asm.wasm.{'br' if coding == 'br' else 'gz'}"
    assert packed.is_file(), f"{packed} is missing: run `sh .ci/ensure-pyodide.sh` (make test does)"
    status, headers, body = https(site.ports.https, site.root, "GET", wasm, headers={"Accept-Encoding": accepted})
    assert status == 200 and headers["Content-Encoding"] == coding
    assert headers["Content-Type"] == "application/wasm" and "Accept-Encoding" in headers["Vary"]
    assert body == packed.read_bytes() and unpack(body) == (RUNTIME_DIR / "pyodide.asm.wasm").read_bytes()


def test_offline_mode_over_https_answers_a_settle_form_with_no_signal_as_the_server_does(site, phone):
    """The switch turned on loads the engine through Caddy; with the network off, a game page's settle form is
    answered by the phone, with the deltas the server answers for the same input."""
    page, context = phone.page, phone.context
    slug, action, payload = examples({"settle"})[0]
    status = turn_on_offline_mode(page, site.base)
    assert status.startswith(READY), status
    try:
        answer_offline(page, context, site.base, slug, action, payload)
        shown = shown_deltas(page)
    finally:
        context.set_offline(False)
    status, _, body = https(site.ports.https, site.root, "POST", f"/api/v1/{slug}/{action}", payload)
    assert status == 200 and shown == json.loads(body)["deltas"]
