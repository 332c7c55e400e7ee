"""牌局 Paiju web app: the app factory."""
from __future__ import annotations

import os
from pathlib import Path

from flask import Flask

_PKG = Path(__file__).resolve().parent


def _asset_dir(name: str) -> str:
    """templates/ and static/ sit beside the packages in a checkout and
    inside ``webapp/`` in an installed wheel."""
    inside = _PKG / name
    return str(inside if inside.is_dir() else _PKG.parent / name)


def create_app(overrides: dict | None = None) -> Flask:
    app = Flask(__name__, template_folder=_asset_dir("templates"), static_folder=_asset_dir("static"),
                instance_relative_config=True)
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("SECRET_KEY", "dev-only-change-me"),
        JSON_AS_ASCII=False,
        WTF_CSRF_TIME_LIMIT=None,  # a token must survive an evening's game
    )
    app.json.ensure_ascii = False
    if overrides:
        app.config.update(overrides)

    from . import api, errors, tables
    app.register_blueprint(api.bp)
    errors.init_app(app)
    tables.init_app(app)
    try:
        from . import pages
        pages.init_app(app)
    except ImportError:  # pages arrive in a later commit
        pass
    return app
