"""A web app a phone keeps: the manifest, the service worker and the offline notice, at stable URLs.

Static files are served under content-hashed names (see :mod:`webapp.serving`), but a browser finds the
manifest and the service worker by an address that never changes. The worker is ``static/sw.js`` with
one generated line in front of it: the list of what it keeps for offline reading (every static file by
its hashed name, the rules pages in both languages, the offline notice). Any change of a static file
changes that line, so the browser installs the new worker and the new assets with it.
"""
from __future__ import annotations

import hashlib
import io
import json
import mimetypes
import os
import zipfile
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, abort, current_app, render_template, request, send_from_directory, url_for

from scoring.i18n import LANGS, render
from scoring.registry import all_games

from .i18n import current_lang
from .offline_stdlib import PACKERS, stdlib_packed, stdlib_zip
from .offline_stdlib import stamp as stdlib_stamp
from .security import CONTENT_SECURITY_POLICY

bp = Blueprint("pwa", __name__)

WORKER_FILE = "sw.js"
THEME_COLOR = "#7a1f1a"  # the header's colour
BACKGROUND_COLOR = "#fbfaf7"  # the page's (light) background
ICONS = (
    ("icons/icon.svg", "image/svg+xml", "any"),
    ("icons/icon-192.png", "image/png", "192x192"),
    ("icons/icon-512.png", "image/png", "512x512"),
)


def init_app(app) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals["offline_engine_ready"] = lambda: runtime_version() is not None
    app.jinja_env.globals["offline_mode_on"] = offline_mode_on
    app.jinja_env.globals["phone_holds_hands"] = phone_holds_hands


#: set by static/offline-engine.js while offline mode is on in this phone
OFFLINE_COOKIE = "paiju_offline"


def offline_mode_on() -> bool:
    """This phone turned offline mode on: its game tabs bring the engine's script (static/offline-engine.js); a
    phone that never did, as on any first visit, downloads none of it (issue 42). The pages vary on Cookie."""
    return request.cookies.get(OFFLINE_COOKIE) == "1"


#: set by static/outbox.js while this phone holds hands not yet recorded
HELD_COOKIE = "paiju_held"


def phone_holds_hands() -> bool:
    """This phone holds hands not yet recorded: the table page runs its hand queue (static/outbox.js) at once; a
    phone that holds none, as on any first visit, loads it once the page is idle (issue 42)."""
    return request.cookies.get(HELD_COOKIE) == "1"


@bp.get("/manifest.webmanifest")
def manifest():
    body = {
        "id": url_for("pages.home"),
        "name": "牌局 Paiju",
        "short_name": "牌局",
        "description": "打牌记分、查规则、记账 · card game scores, rules and table ledger",
        "lang": "zh-CN",
        "start_url": url_for("pages.home"),
        "scope": url_for("pages.home"),
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [{"src": url_for("static", filename=name), "type": kind, "sizes": sizes, "purpose": "any"}
                  for name, kind, sizes in ICONS],
    }
    resp = current_app.response_class(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/sw.js")
def service_worker():
    source = Path(current_app.static_folder, WORKER_FILE).read_text(encoding="utf-8")
    keep = offline_urls()
    build = hashlib.sha256(json.dumps(keep).encode()).hexdigest()[:12]
    config = {"build": build, "precache": keep["precache"], "offline": keep["offline"]}
    body = f"self.PAIJU = {json.dumps(config, ensure_ascii=False)};\n{source}"
    resp = current_app.response_class(body, mimetype="text/javascript")
    # the browser checks for a new worker at every visit; the worker itself may control the whole site
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["Service-Worker-Allowed"] = url_for("pages.home")
    return resp


@bp.get("/offline")
def offline():
    return render_template("pwa/offline.html", rules=rules_links())


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for /favicon.ico where a page names no icon (the JSON API, a download)."""
    return send_from_directory(Path(current_app.static_folder, "icons"), "icon-64.png", mimetype="image/png",
                               max_age=7 * 24 * 3600)


def rules_links() -> list[tuple[str, str]]:
    lang = current_lang()
    return [(render(game.name, lang), url_for("pages.rules", slug=game.slug)) for game in all_games()]


def offline_urls() -> dict:
    """What the worker keeps: every static file (hashed names), each rules page and the offline notice
    in each language."""
    notices = {lang: url_for("pwa.offline", lang=lang) for lang in LANGS}
    rules = [url_for("pages.rules", slug=game.slug, lang=lang) for game in all_games() for lang in LANGS]
    return {"precache": static_urls() + rules + list(notices.values()), "offline": notices}


#: static files no page shows offline (issue 42: the worker's install fetches only what offline use needs): the
#: manifest's largest icon (the browser fetches it to install the app, online), the /favicon.ico fallback (not a
#: /static/ address) and the engine worker's source (offline mode keeps it at /offline-engine/worker.js)
NOT_KEPT = frozenset({"icons/icon-512.png", "icons/icon-64.png", "offline-engine-worker.js"})


def static_urls() -> list[str]:
    folder = current_app.static_folder
    names = sorted(os.path.relpath(os.path.join(root, name), folder).replace(os.sep, "/")
                   for root, _dirs, files in os.walk(folder) for name in files)
    return [url_for("static", filename=name) for name in names
            if name != WORKER_FILE and name not in NOT_KEPT and not name.startswith(".")
            and not name.endswith((".LICENSE", ".map"))]


# --- offline mode (issue 29): the Pyodide runtime, served by Paiju itself (never a CDN) -------------------
# .ci/ensure-pyodide.sh unpacks the npm package into .cache/pyodide/; only these files are ever served.
RUNTIME_DIR = Path(__file__).resolve().parent.parent / ".cache" / "pyodide"
RUNTIME_FILES = frozenset({"pyodide.js", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                           "python_stdlib.zip", "pyodide-lock.json"})


#: what the page's worker loads of the runtime (pyodide.mjs finds the others by its own address; the standard
#: library is the engine's part of it, /offline-engine/stdlib.zip)
LOADED_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")
FULL_STDLIB = RUNTIME_DIR / "python_stdlib.zip"


def not_found():
    return current_app.response_class("not found", status=404, mimetype="text/plain")


#: the runtime's files precompressed by .ci/ensure-pyodide.sh (issue 42): the encoding and the file's suffix, the
#: smallest first; a browser that accepts neither gets the file as it is
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


@bp.get("/offline-engine/pyodide/<name>")
def runtime_file(name: str):
    if name not in RUNTIME_FILES or not (RUNTIME_DIR / name).is_file():
        return not_found()
    kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
    for coding, suffix in ENCODINGS:
        if request.accept_encodings[coding] and (RUNTIME_DIR / (name + suffix)).is_file():
            resp = send_from_directory(RUNTIME_DIR, name + suffix, mimetype=kind, max_age=86400)
            resp.headers["Content-Encoding"] = coding
            break
    else:
        resp = send_from_directory(RUNTIME_DIR, name, mimetype=kind, max_age=86400)
    resp.vary.add("Accept-Encoding")
    return resp


def runtime_version() -> str | None:
    """The Pyodide release in .cache/pyodide/ (None: not fetched, offline mode unavailable)."""
    try:
        return (RUNTIME_DIR / "VERSION").read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


@bp.get("/offline-engine/pyodide/<version>/<name>")
def versioned_runtime_file(version: str, name: str):
    """The runtime under its release's own address: a phone's kept copy is never taken for another release."""
    if version != runtime_version():
        return not_found()
    resp = runtime_file(name)
    if resp.status_code == 200:
        resp.cache_control.max_age = 365 * 24 * 3600
        resp.cache_control.immutable = True
    return resp


# The engine the phone runs: the repo's scoring/ package itself, zipped when first asked for (no second copy).
ENGINE_DIR = Path(__file__).resolve().parent.parent / "scoring"


def engine_files() -> list[Path]:
    return sorted(path for path in ENGINE_DIR.rglob("*.py") if "__pycache__" not in path.parts)


@lru_cache(maxsize=1)
def engine_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in engine_files():
            info = zipfile.ZipInfo(path.relative_to(ENGINE_DIR.parent).as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
            archive.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def refuse_other_version(body: bytes) -> None:
    """A file asked for at the address of another version (``?v=``, from a manifest another server answered,
    during a deploy) is not this server's to give: a 404, so the phone never keeps old code under a new name."""
    asked = request.args.get("v")
    if asked is not None and asked != short_hash(body):
        abort(404)


@bp.get("/offline-engine/scoring.zip")
def engine_archive():
    body = engine_zip()
    refuse_other_version(body)
    resp = current_app.response_class(body, mimetype="application/zip")
    resp.set_etag(hashlib.sha256(body).hexdigest()[:16])
    resp.headers["Cache-Control"] = "no-cache"
    return resp.make_conditional(request)


def engine_stdlib() -> bytes:
    return stdlib_zip(FULL_STDLIB, stdlib_stamp(FULL_STDLIB))


@bp.get("/offline-engine/stdlib.zip")
def stdlib_archive():
    """The part of Python's standard library the engine runs on (webapp/offline_stdlib.py), compressed as the
    browser accepts (the zip itself is stored)."""
    if runtime_version() is None or not FULL_STDLIB.is_file():
        return not_found()
    body = engine_stdlib()
    refuse_other_version(body)
    made, kept = stdlib_stamp(FULL_STDLIB), stdlib_path()
    resp = packed_zip(body, lambda coding: precompressed(kept, coding) or stdlib_packed(FULL_STDLIB, made, coding))
    resp.headers["Cache-Control"] = "no-cache"
    return resp


def stdlib_path() -> Path:
    """Where .ci/ensure-pyodide.sh keeps the standard library's part as it is now, to compress it at its best."""
    return RUNTIME_DIR / f"stdlib-{short_hash(engine_stdlib())}.zip"


def precompressed(path: Path, coding: str) -> bytes | None:
    """``path`` as .ci/ensure-pyodide.sh compressed it beside itself, if it did."""
    packed = path.with_name(path.name + dict(ENCODINGS)[coding])
    return packed.read_bytes() if packed.is_file() else None


def packed_zip(body: bytes, packed):
    """A zip compressed as a whole in the first encoding the browser accepts (``packed(coding)``: its bytes, or
    None where this server cannot), else as it is."""
    for coding, _suffix in ENCODINGS:
        sent = request.accept_encodings[coding] and packed(coding)
        if sent:
            resp = current_app.response_class(sent, mimetype="application/zip")
            resp.headers["Content-Encoding"] = coding
            break
    else:
        resp = current_app.response_class(body, mimetype="application/zip")
    resp.vary.add("Accept-Encoding")
    return resp


# --- the engine compiled for the phone by the runtime itself (webapp/offline_compiled.py, issue 42) -------------

@lru_cache(maxsize=1)
def engine_sources_zip() -> bytes:
    """scoring/ as /offline-engine/scoring.zip holds it, and the page glue where the worker writes it."""
    buffer = io.BytesIO(engine_zip())
    with zipfile.ZipFile(buffer, "a", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("paiju_offline.py", date_time=(1980, 1, 1, 0, 0, 0)),
                         PAGE_MODULE.read_bytes())
    return buffer.getvalue()


def compiled_engine_path(runtime_dir: Path = RUNTIME_DIR) -> Path:
    """Where the compiled files of the engine's sources as they are now would be (.ci/ensure-pyodide.sh)."""
    return runtime_dir / f"engine-{compiled_engine_key()}.pyc.zip"


def compiled_engine_key() -> str:
    """Names the sources and the runtime that compiles them (its package.json names its release)."""
    release = RUNTIME_DIR / "package.json"
    return short_hash(engine_sources_zip() + (release.read_bytes() if release.is_file() else b""))


@lru_cache(maxsize=4)
def compiled_engine_packed(path: Path, coding: str) -> bytes | None:
    return PACKERS[coding](path.read_bytes())


@bp.get("/offline-engine/engine-pyc.zip")
def compiled_engine():
    """The engine compiled by the runtime's CPython, for these sources only (``?v=`` names them)."""
    path = compiled_engine_path()
    if request.args.get("v") != compiled_engine_key() or not path.is_file():
        return not_found()
    resp = packed_zip(path.read_bytes(), lambda coding: precompressed(path, coding) or compiled_engine_packed(path, coding))
    resp.cache_control.max_age = 365 * 24 * 3600
    resp.cache_control.immutable = True
    return resp


# --- what the page keeps when the player turns offline mode on (static/offline-engine.js) ----------------------
PAGE_MODULE = Path(__file__).resolve().parent / "offline_page.py"
ENGINE_WORKER = "offline-engine-worker.js"
#: the worker running Pyodide may compile WebAssembly; only this response's policy allows it (a dedicated
#: worker obeys the policy its own script came with), the pages keep the site's policy without it
WORKER_POLICY = CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")


def short_hash(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:12]


def worker_source() -> bytes:
    return Path(current_app.static_folder, ENGINE_WORKER).read_bytes()


@bp.get("/offline-engine/page.py")
def page_module():
    """The glue that reads a game tab's form into the engine's payload (webapp/offline_page.py)."""
    body = PAGE_MODULE.read_bytes()
    refuse_other_version(body)
    resp = current_app.response_class(body, mimetype="text/x-python")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/offline-engine/worker.js")
def engine_worker():
    body = worker_source()
    refuse_other_version(body)
    resp = current_app.response_class(body, mimetype="text/javascript")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["Content-Security-Policy"] = WORKER_POLICY
    return resp


def engine_pages() -> list[str]:
    """The pages a phone keeps for offline mode: home and every game tab that posts an engine action."""
    pages = [url_for("pages.home")]
    for game in all_games():
        pages += [url_for(f"pages.{tab}", slug=game.slug) for tab in game.tabs
                  if tab in ("settle", *game.action_names())]
    return pages


@bp.get("/offline-engine/manifest.json")
def engine_manifest():
    """What offline mode downloads, each file at an address that names its version (a changed file is a new
    address: the phone fetches it again, and drops what is no longer listed), and the pages it keeps."""
    version = runtime_version()
    if version is None:
        return current_app.response_class(json.dumps({"available": False}), mimetype="application/json")
    runtime = url_for("pwa.versioned_runtime_file", version=version, name="x")[:-1]
    files = [runtime + name for name in LOADED_FILES]
    engine = url_for("pwa.engine_archive", v=short_hash(engine_zip()))
    stdlib = url_for("pwa.stdlib_archive", v=short_hash(engine_stdlib()))
    page = url_for("pwa.page_module", v=short_hash(PAGE_MODULE.read_bytes()))
    worker = url_for("pwa.engine_worker", v=short_hash(worker_source()))
    compiled = compiled_engine_path()
    files = [worker, engine, stdlib, page, *files]
    body = {"available": True, "runtime": runtime, "engine": engine, "stdlib": stdlib, "page": page,
            "worker": worker, "files": files, "pages": engine_pages(),
            "bytes": sum((RUNTIME_DIR / name).stat().st_size for name in LOADED_FILES) + len(engine_zip())
            + len(engine_stdlib()) + len(PAGE_MODULE.read_bytes()) + len(worker_source())}
    if compiled.is_file():  # scoring/ compiled for the phone (the phone compiles it itself where it is not)
        body["compiled"] = url_for("pwa.compiled_engine", v=compiled_engine_key())
        files.append(body["compiled"])
        body["bytes"] += compiled.stat().st_size
    resp = current_app.response_class(json.dumps(body), mimetype="application/json")
    resp.headers["Cache-Control"] = "no-cache"
    return resp
