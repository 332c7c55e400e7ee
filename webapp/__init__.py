"""牌局 Paiju web app: the app factory."""
from __future__ import annotations

import os
import secrets
import tempfile
from contextlib import contextmanager
from pathlib import Path

from flask import Flask

from . import security
from .serving import (PaijuFlask, compress_unless_small, deployment_config, merge_vary_headers, serve_hashed_static,
                      trust_proxy)

_PKG = Path(__file__).resolve().parent


def _asset_dir(name: str) -> str:
    """templates/ and static/ sit beside the packages in a checkout and
    inside ``webapp/`` in an installed wheel."""
    inside = _PKG / name
    return str(inside if inside.is_dir() else _PKG.parent / name)


def _instance_secret(app: Flask) -> str:
    """No SECRET_KEY given: use one made at random for this instance and kept in ``instance/secret_key``,
    so sessions and form tokens survive a restart and no two installations share a key.

    The key is written whole to a private temporary file and then hard-linked into place, so a second
    process starting at the same moment either finds no file or the complete key, never an empty one;
    the first link wins and every other process reads that key."""
    path = Path(app.instance_path) / "secret_key"
    key = _read_key(path)
    if key:
        return key
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret_key.")  # mode 0600
    try:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
        try:
            os.link(temporary, path)
        except FileExistsError:
            if not _read_key(path):  # an empty file left by a crash of the old, non-atomic writer
                os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return _read_key(path)


def _read_key(path: Path) -> str:
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        return ""


def create_app(overrides: dict | None = None) -> Flask:
    app = PaijuFlask(__name__, template_folder=_asset_dir("templates"), static_folder=_asset_dir("static"),
                instance_relative_config=True)
    app.config.from_mapping(
        WTF_CSRF_TIME_LIMIT=None,  # a token must survive an evening's game
        BABEL_DEFAULT_LOCALE="zh",
        BABEL_TRANSLATION_DIRECTORIES=str(_PKG / "translations"),
        MAX_CONTENT_LENGTH=256 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        **deployment_config(),
    )
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    if overrides:
        app.config.update(overrides)
    if app.config.get("TRUSTED_HOSTS"):  # as a request's host is compared with them (serving.trusted_host)
        from .serving import host_names
        app.config["TRUSTED_HOSTS"] = host_names(app.config["TRUSTED_HOSTS"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(app)

    # the blueprints import the app's extensions: importing them here keeps `import webapp` cheap and acyclic
    from . import api, errors, live, pages, render
    from .ledger import api as ledger_api
    from .ledger import pages as ledger_pages
    from .ledger import web as ledger_web
    from .extensions import babel, compress, csrf, htmx
    from .i18n import current_lang

    babel.init_app(app, locale_selector=current_lang)
    htmx.init_app(app)
    with _app_hooks_added(app) as csrf_hooks:
        csrf.init_app(app)
    compressing = app.config.get("COMPRESS_REGISTER", True)  # False (a test's client): answers go as they are
    app.config["COMPRESS_REGISTER"] = False  # Flask-Compress's own hook is called by compress_unless_small
    compress.init_app(app)
    if compressing:
        app.after_request(compress_unless_small(compress, app.config))
    app.after_request(merge_vary_headers)  # registered after Flask-Compress, so it runs before it
    security.init_app(app)
    serve_hashed_static(app)
    trust_proxy(app)
    csrf.exempt(api.bp)
    app.url_map.converters["game"] = api.GameSlug
    app.register_blueprint(api.bp)
    errors.init_app(app)
    pages.init_app(app)
    app.register_blueprint(live.bp)
    ledger_web.init_app(app)  # the ledger's database, limits and purge command
    csrf.exempt(ledger_api.bp)  # CSRF protects the forms; the JSON API is token-based
    app.register_blueprint(ledger_api.bp)
    app.register_blueprint(ledger_pages.bp)
    from .ledger import following  # following a table's next hand (the live page's forms)
    app.register_blueprint(following.bp)
    from . import pwa  # the manifest, the service worker, the offline notice
    pwa.init_app(app)
    from .ledger import settleup  # settle-up, evening stats, new evening
    app.register_blueprint(settleup.bp)
    from .ledger import circles  # a circle's season (牌友圈)
    csrf.exempt(circles.api_bp)
    app.register_blueprint(circles.api_bp)
    app.register_blueprint(circles.bp)
    _run_only_under(app, _hooks_of(app, ledger_web.limiter), [n for n in app.blueprints if n not in UNLIMITED_BLUEPRINTS])
    _run_only_under(app, csrf_hooks, [n for n in app.blueprints if n not in JSON_APIS])
    security.check_json_bodies(app, JSON_APIS)
    render.init_app(app)
    return app


#: the JSON APIs: token-based, so no CSRF token (their blueprints are exempt), and a body must be JSON
JSON_APIS = frozenset({"api", "tables_api", "circles_api"})

#: the blueprints none of whose routes has a rate limit: the limiter need not look at their requests
UNLIMITED_BLUEPRINTS = frozenset({"api", "pages", "live"})

_HOOK_REGISTRIES = ("before_request_funcs", "after_request_funcs", "teardown_request_funcs")


@contextmanager
def _app_hooks_added(app: Flask):
    """The app-wide request hooks registered inside the block, by registry."""
    known = {name: list(getattr(app, name).get(None, ())) for name in _HOOK_REGISTRIES}
    added: dict[str, list] = {}
    yield added
    for name in _HOOK_REGISTRIES:
        added[name] = [hook for hook in getattr(app, name).get(None, ()) if hook not in known[name]]


def _hooks_of(app: Flask, extension) -> dict[str, list]:
    """The app-wide request hooks that are methods of ``extension`` (or partials of one)."""
    def its_own(hook) -> bool:
        return getattr(hook, "__self__", None) is extension or any(a is extension for a in getattr(hook, "args", ()))
    return {name: [hook for hook in getattr(app, name).get(None, ()) if its_own(hook)] for name in _HOOK_REGISTRIES}


def _run_only_under(app: Flask, hooks: dict[str, list], blueprints) -> None:
    """App-wide ``hooks`` moved under ``blueprints``: they run for those blueprints' requests alone, first
    among each one's own hooks, where an app-wide hook runs for every request (the limiter's resolve every
    limit and exemption of the route, even where there is none; CSRF's looks up exemptions). A request
    that matched no route, or the static files' route, needs neither."""
    for registry_name, moved in hooks.items():
        registry = getattr(app, registry_name)
        registry[None] = [hook for hook in registry.get(None, ()) if hook not in moved]
        for name in blueprints:
            registry.setdefault(name, [])[:0] = moved
