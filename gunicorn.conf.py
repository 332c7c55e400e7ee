"""gunicorn's settings for `make serve` (docs/deploy.md). Each can be overridden from the environment:
BIND (default 127.0.0.1:8000), WEB_CONCURRENCY (workers), THREADS, TIMEOUT, WORKER_CONNECTIONS; and
HEADER_TIMEOUT, BODY_TIMEOUT (read by webapp/buffering_worker.py)."""
import gc
import multiprocessing
import os
import sys

bind = os.environ.get("BIND", "127.0.0.1:8000")

# gunicorn's threaded workers, each reading requests whole in its main loop before a thread runs the app
# (webapp/buffering_worker.py): a client trickling its headers or body holds a socket and a buffer, not a
# thread, for HEADER_TIMEOUT (10 s) and BODY_TIMEOUT (20 s) at most, and up to WORKER_CONNECTIONS of them
# per worker wait without stopping anyone else's requests.
worker_class = "webapp.buffering_worker.BufferingWorker"
workers = int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count() * 2 + 1)
threads = int(os.environ.get("THREADS") or 4)
worker_connections = int(os.environ.get("WORKER_CONNECTIONS") or 1000)
keepalive = 0  # one request a connection: a proxy in front, if any, keeps the browsers' connections alive

# a worker whose main loop is silent this long is replaced; a stopping one gets this long to finish
timeout = int(os.environ.get("TIMEOUT") or 30)
graceful_timeout = 20

# a fresh process now and then bounds whatever a long-lived one accumulates
max_requests = 5000
max_requests_jitter = 500

# The app is built once, in the master, and each worker is forked from it: the workers share its memory
# (copy-on-write) and a worker replacing one that reached max_requests starts in milliseconds. (A code
# change needs a restart, not a HUP.) Ledger engines drop their inherited pools in the child (webapp/ledger/db.py).
preload_app = True


def when_ready(server):
    """In the master, app built, before the first fork: migrate once, answer each page once (the workers
    inherit compiled templates and kept answers), then freeze what start-up made."""
    app = server.app.wsgi()
    if "paiju_db" in getattr(app, "extensions", {}):  # Paiju's app, not some other WSGI callable
        from webapp.ledger.db import migrate_before_fork
        from webapp.render import warm_up
        from webapp.serving import unguarded_host_warning
        migrate_before_fork(app)
        warm_up(app)
        warning = unguarded_host_warning(app.config)
        if warning:
            print(warning, file=sys.stderr, flush=True)
    freeze_startup_objects()


def pre_fork(server, worker):
    freeze_startup_objects()


def freeze_startup_objects():
    """Everything start-up made lives as long as the process: gc.freeze() moves it out of the collector's
    reach, so a worker's full collection walks only what the worker made (short pauses, where walking all
    of start-up's objects took ~44 ms) and never writes to the shared pages, which then stay shared."""
    gc.collect()
    gc.freeze()


# which scheme a request came over is the app's to say: behind a proxy PROXY_FIX=N (webapp/serving.py) believes its
# X-Forwarded-Proto, and without it nobody's is (gunicorn's default believes one sent from 127.0.0.1 by anyone)
secure_scheme_headers = {}

# the request line carries the edit token: no access log unless asked for (ACCESS_LOG=-)
accesslog = os.environ.get("ACCESS_LOG") or None
errorlog = "-"
