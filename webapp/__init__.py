"""牌局 Paiju web app: the app factory."""
from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path

from flask import Flask, request

from . import security
from .serving import PaijuFlask, deployment_config, merge_vary_headers, serve_hashed_static, trust_proxy

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
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(app)

    # the blueprints import the app's extensions: importing them here keeps `import webapp` cheap and acyclic
    from . import api, errors, pages, q783_tracker, render, tables
    from .extensions import babel, compress, csrf, htmx
    from .i18n import current_lang

    babel.init_app(app, locale_selector=current_lang)
    htmx.init_app(app)
    csrf.init_app(app)
    compress.init_app(app)
    app.after_request(merge_vary_headers)  # registered after Flask-Compress, so it runs before it
    security.init_app(app)
    serve_hashed_static(app)
    trust_proxy(app)
    csrf.exempt(api.bp)
    app.register_blueprint(api.bp)
    errors.init_app(app)
    pages.init_app(app)
    app.register_blueprint(q783_tracker.bp)
    tables.init_app(app)
    from . import pwa  # the manifest, the service worker, the offline notice
    pwa.init_app(app)
    from . import evening  # settle-up, evening stats, new evening
    app.register_blueprint(evening.bp)
    _skip_limiter_outside_limited_blueprints(app, tables.limiter)
    render.init_app(app)
    return app


#: the blueprints none of whose routes has a rate limit: the limiter need not look at their requests
UNLIMITED_BLUEPRINTS = frozenset({"api", "pages", "q783_tracker"})


def _skip_limiter_outside_limited_blueprints(app: Flask, limiter) -> None:
    """The limiter's hooks (before: resolve every limit and exemption of the route, even where there is
    none; after: headers; teardown: its per-request state) run only for the blueprints that may carry limits."""
    for registry in (app.before_request_funcs, app.after_request_funcs, app.teardown_request_funcs):
        hooks = registry.get(None, [])
        for i, hook in enumerate(hooks):
            if getattr(hook, "__self__", None) is limiter or any(a is limiter for a in getattr(hook, "args", ())):
                hooks[i] = _unless_unlimited(hook)


def _unless_unlimited(hook):
    def only_where_limited(*args):
        if request.blueprint not in UNLIMITED_BLUEPRINTS:
            return hook(*args)
        return args[0] if args else None  # an after-request hook hands the response on
    return only_where_limited
