"""Shared fixtures: the whole app in process, and a JSON API helper."""
from __future__ import annotations

import pytest

from webapp import create_app


@pytest.fixture
def app(tmp_path):
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'test.db'}",
    })
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def api(client):
    """``api(path, body)`` posts JSON to /api/v1/<path> and returns (status, json)."""

    def call(path: str, body=None, method: str = "POST", lang: str | None = None, headers=None):
        h = dict(headers or {})
        if lang:
            h["Accept-Language"] = lang
        resp = client.open(f"/api/v1/{path}", method=method, json=body, headers=h)
        return resp.status_code, resp.get_json(silent=True)

    return call
