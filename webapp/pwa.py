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
import os
import zipfile
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, current_app, render_template, request, send_from_directory, url_for

from scoring.i18n import LANGS, render
from scoring.registry import all_games

from .i18n import current_lang

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


def static_urls() -> list[str]:
    folder = current_app.static_folder
    names = sorted(os.path.relpath(os.path.join(root, name), folder).replace(os.sep, "/")
                   for root, _dirs, files in os.walk(folder) for name in files)
    return [url_for("static", filename=name) for name in names
            if name != WORKER_FILE and not name.startswith(".") and not name.endswith((".LICENSE", ".map"))]


# --- offline mode (issue 29): the Pyodide runtime, served by Paiju itself (never a CDN) -------------------
# .ci/ensure-pyodide.sh unpacks the npm package into .cache/pyodide/; only these files are ever served.
RUNTIME_DIR = Path(__file__).resolve().parent.parent / ".cache" / "pyodide"
RUNTIME_FILES = frozenset({"pyodide.js", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                           "python_stdlib.zip", "pyodide-lock.json"})


@bp.get("/offline-engine/pyodide/<name>")
def runtime_file(name: str):
    if name not in RUNTIME_FILES or not (RUNTIME_DIR / name).is_file():
        return current_app.response_class("not found", status=404, mimetype="text/plain")
    return send_from_directory(RUNTIME_DIR, name, max_age=86400)


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


@bp.get("/offline-engine/scoring.zip")
def engine_archive():
    body = engine_zip()
    resp = current_app.response_class(body, mimetype="application/zip")
    resp.set_etag(hashlib.sha256(body).hexdigest()[:16])
    resp.headers["Cache-Control"] = "no-cache"
    return resp.make_conditional(request)
