"""gunicorn's settings for `make serve` (docs/deploy.md). Each can be overridden from the environment:
BIND (default 127.0.0.1:8000), WEB_CONCURRENCY (workers), THREADS, TIMEOUT."""
import gc
import multiprocessing
import os

bind = os.environ.get("BIND", "127.0.0.1:8000")

# gthread workers: a request the client is still sending holds one thread, not a whole worker. A worker
# takes a connection only when it has a free thread for it (worker_connections = threads), so one whose
# threads wait on half-sent requests leaves new connections to the others instead of queueing them.
# Many slow clients can still tie up every thread: in production a buffering reverse proxy sits in front
# (docs/deploy.md) and hands gunicorn only complete requests.
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count() * 2 + 1)
threads = int(os.environ.get("THREADS") or 4)
worker_connections = threads
keepalive = 0  # a kept-alive connection would hold a slot too; the proxy in front keeps the browsers' alive

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
        migrate_before_fork(app)
        warm_up(app)
    freeze_startup_objects()


def pre_fork(server, worker):
    freeze_startup_objects()


def freeze_startup_objects():
    """Everything start-up made lives as long as the process: gc.freeze() moves it out of the collector's
    reach, so a worker's full collection walks only what the worker made (short pauses, where walking all
    of start-up's objects took ~44 ms) and never writes to the shared pages, which then stay shared."""
    gc.collect()
    gc.freeze()


# the request line carries the edit token: no access log unless asked for (ACCESS_LOG=-)
accesslog = os.environ.get("ACCESS_LOG") or None
errorlog = "-"
