"""Paiju served in a thread of the bench's own process, on a free port of 127.0.0.1, with a throwaway SQLite
ledger: what the browser benches open."""
from __future__ import annotations

import logging
import tempfile
import threading
from collections.abc import Callable

from werkzeug.serving import make_server

from webapp import create_app


def serve_in_thread(config: dict, wrap: Callable | None = None):
    """The server and its base URL; ``wrap`` (a WSGI middleware, such as one counting bytes) goes around the app."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = create_app({"DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/bench.db", **config})
    if wrap is not None:
        app.wsgi_app = wrap(app.wsgi_app)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"
