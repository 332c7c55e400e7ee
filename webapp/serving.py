"""How the app is served in production: settings from the environment, the proxy in front, static files.

Static files are linked under content-hashed names (``app.css`` → ``app.3f2a9c1b04de.css``) and served
under those names with a year's ``Cache-Control: public, immutable``: a phone downloads htmx once, and a
new deployment changes the name of whatever changed. A dozen lines instead of Flask-Static-Digest, which
needs a compile step before every start and copies of every file beside the sources.
"""
from __future__ import annotations

import hashlib
import io
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import ClassVar

import brotli
from flask import Flask, Request, Response, current_app, request, send_from_directory
from jinja2 import BytecodeCache
from werkzeug.exceptions import ClientDisconnected, RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import Rule
from werkzeug.security import safe_join
from werkzeug.utils import cached_property
from werkzeug.wsgi import get_content_length

#: a year, the longest lifetime caches honour
IMMUTABLE_MAX_AGE = 365 * 24 * 3600
DIGEST_CHARS = 12
HASHED_NAME = re.compile(rf"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{DIGEST_CHARS}}})(?P<suffix>\.[A-Za-z0-9]+)$")


PLAIN_MARK = "_paiju_plain_function"  # set on a function Flask may call as it is


class PaijuResponse(Response):
    """A response whose text can always be sent: a lone surrogate, which no UTF-8 can carry, left in a page
    by input shown back (a JSON escape ``\\ud800`` typed and read) is written as that escape, not a 500.
    (Text set whole, by the constructor or ``data``; a streamed body of str is encoded as Werkzeug does.)"""

    def set_data(self, value) -> None:
        if isinstance(value, str):
            value = value.encode("utf-8", "backslashreplace")
        super().set_data(value)

    data = property(Response.get_data, set_data)  # Werkzeug's property holds its own set_data


class PaijuRequest(Request):
    """A request whose body, when its length is given, is read whole at once: werkzeug's guarded stream
    reads a small body through io's Python-level ``readall`` loop, and reading it at once saves 25,000 of
    an API check's 947,000 instructions.

    What werkzeug's stream guards stays guarded: a length over ``max_content_length`` is a 413 before
    anything is read, no more than the given length is read (a development server's input is the socket
    itself), and a body that ends early or breaks off (a reset connection) is a ``ClientDisconnected``
    (400). A body without a length (chunked) still goes through werkzeug's stream. One difference: the body
    is read when the stream is made, not when it is first read (``request.form`` of a JSON body reads it),
    which costs at most ``MAX_CONTENT_LENGTH``."""

    def __init__(self, environ, *args, **kwargs):
        trusted_host(environ)
        super().__init__(environ, *args, **kwargs)

    @cached_property
    def stream(self):
        # None when chunked or not given; 0 when empty, negative or not a number (nothing is read)
        length = get_content_length(self.environ)
        if length is None and not self.shallow and "wsgi.input_terminated" in self.environ:
            return self._chunked_body()
        if length is None or self.shallow:
            return super().stream  # werkzeug's, which also refuses a shallow request
        limit = self.max_content_length
        if limit is not None and length > limit:
            raise RequestEntityTooLarge()
        try:
            body = self.environ["wsgi.input"].read(length) if length else b""
        except (OSError, ValueError) as exc:  # what werkzeug's LimitedStream takes for a disconnection
            raise ClientDisconnected() from exc
        if len(body) < length:
            raise ClientDisconnected()
        return io.BytesIO(body)

    def _chunked_body(self):
        """A body without a length (chunked), which the server ends: read to its end, and over
        ``max_content_length`` a 413 as when its length said so (werkzeug's stream stops at the limit and
        hands over the cut body, which then reads as malformed: a 400)."""
        limit = self.max_content_length
        source = self.environ["wsgi.input"]
        parts, size = [], 0
        try:
            while limit is None or size <= limit:
                part = source.read(65536 if limit is None else min(65536, limit + 1 - size))
                if not part:
                    break
                parts.append(part)
                size += len(part)
        except (OSError, ValueError) as exc:
            raise ClientDisconnected() from exc
        if limit is not None and size > limit:
            raise RequestEntityTooLarge()
        return io.BytesIO(b"".join(parts))


def trusted_host(environ) -> None:
    """The request's ``Host`` as ``TRUSTED_HOSTS`` is matched against it and links are built with it: a host
    name's case means nothing, nor does the dot that ends a fully qualified one (``Paiju.Example.`` is
    ``paiju.example``)."""
    host = environ.get("HTTP_HOST")
    if not host or host.startswith("["):  # absent, or an IPv6 address: left as it is
        return
    name, colon, port = host.rpartition(":") if ":" in host else (host, "", "")
    if name.endswith(".") and name != ".":
        name = name[:-1]
    environ["HTTP_HOST"] = name.lower() + colon + port


class CompiledTemplates(BytecodeCache):
    """Templates compiled once per process and shared by every app made in it. Jinja compiles a template
    afresh for each new environment; the tests make an app (so an environment) for most of their 3,000
    tests, and compiling the same templates again was two thirds of a page test's time. A template is kept
    under its name and its source's checksum, so a changed template is compiled again."""

    def __init__(self):
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


class SharedBuilderRule(Rule):
    """A URL rule whose builder, the function ``url_for`` calls, is made once per process for all the apps
    made in it. Werkzeug writes each rule's builder as Python source and compiles it, for every rule of every
    new app: four fifths of making an app (29 of 35 ms), which the tests do for most of their 3,000 tests.
    Without defaults, the builder depends only on the rule's text and parts, and takes the rule (so its
    converters) as its first argument: rules that read alike share one. (Should Werkzeug stop calling
    ``_compile_builder``, each rule is built as before.)"""

    _builders: ClassVar[dict] = {}

    def _compile_builder(self, append_unknown: bool = True):
        if self.defaults:  # a default may be written into the builder through the rule's converter
            return super()._compile_builder(append_unknown)
        key = (self.rule, tuple(self._trace), append_unknown)
        builder = self._builders.get(key)
        if builder is None:
            builder = self._builders[key] = super()._compile_builder(append_unknown)
        return builder


class PaijuFlask(Flask):
    """Flask with :class:`PaijuResponse`, remembering which hooks and views are plain functions.

    Flask asks ``inspect.iscoroutinefunction`` of every before/after/teardown hook and the view on every
    request (a dozen times for a small API call), and for a given function the answer never changes. A
    plain function is marked with an attribute (it is its own ``ensure_sync``), which lives and dies with
    it, so a per-request closure (``after_this_request``) leaves nothing behind; a function that takes no
    attributes (a builtin) and a coroutine function are asked about each time."""

    request_class = PaijuRequest
    response_class = PaijuResponse
    jinja_options: ClassVar[dict] = {**Flask.jinja_options, "bytecode_cache": CompiledTemplates()}
    url_rule_class = SharedBuilderRule

    def ensure_sync(self, func):
        # "is True": an object that answers any attribute (a mock, a proxy) is not taken at its word
        if getattr(func, PLAIN_MARK, None) is True:
            return func
        made = super().ensure_sync(func)
        if made is func:
            try:  # a bound method answers as its function does, and its function takes the mark
                setattr(getattr(func, "__func__", func), PLAIN_MARK, True)
            except (AttributeError, TypeError):
                pass
        return made


def deployment_config(environ=os.environ) -> dict:
    """The settings a deployment gives by environment (see docs/deploy.md); unset ones keep Flask's defaults."""
    config = {
        "SECRET_KEY": environ.get("SECRET_KEY"),
        "DATABASE_URL": environ.get("DATABASE_URL"),
        "PROXY_FIX": int(environ.get("PROXY_FIX") or 0),
    }
    for name in ("SERVER_NAME", "PREFERRED_URL_SCHEME"):
        if environ.get(name):
            config[name] = environ[name]
    hosts = host_names(environ.get("TRUSTED_HOSTS", "").split(","))
    if hosts:
        config["TRUSTED_HOSTS"] = hosts
    return config


def host_names(hosts) -> list[str]:
    """``TRUSTED_HOSTS`` as a request's host is compared with them (:func:`trusted_host`): in lower case, without
    the dot that ends a fully qualified name (a leading dot, "this domain and below", stays)."""
    names = [host.strip().lower() for host in hosts if host and host.strip()]
    return [name[:-1] if name.endswith(".") and len(name) > 1 else name for name in names]


def trust_proxy(app) -> None:
    """``PROXY_FIX=N``: N proxies in front set X-Forwarded-For/-Proto/-Host/-Port/-Prefix; believe them,
    so ``request.is_secure`` (HSTS, Secure cookies) and generated links follow what the browser used."""
    hops = app.config.get("PROXY_FIX") or 0
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops, x_prefix=hops)


class StaticDigests:
    """The content digest of each file in the static folder, recomputed when the file changes."""

    def __init__(self, folder: str):
        self.folder = folder
        self._known: dict[str, tuple[tuple[int, int], str]] = {}

    def digest(self, filename: str) -> str | None:
        path = safe_join(self.folder, filename)
        if path is None or not os.path.isfile(path):
            return None
        stat = os.stat(path)
        stamp = (stat.st_mtime_ns, stat.st_size)
        known = self._known.get(filename)
        if known is None or known[0] != stamp:
            known = (stamp, hashlib.sha256(Path(path).read_bytes()).hexdigest()[:DIGEST_CHARS])
            self._known[filename] = known
        return known[1]

    def hashed_name(self, filename: str) -> str:
        stem, dot, suffix = filename.rpartition(".")
        digest = self.digest(filename) if dot and "/" not in suffix else None
        return f"{stem}.{digest}.{suffix}" if digest else filename


def compress_unless_small(compress, config):
    """Flask-Compress's hook for an answer of at least ``COMPRESS_MIN_SIZE`` bytes or of unknown size. A
    smaller one it would send as it is: it goes out at once, and being the same whatever the client
    accepts, it needs no ``Vary: Accept-Encoding``. (``config`` is the app's, read at each response
    without a look-up through ``current_app``.)"""
    def compressed_unless_small(response):
        length = response.content_length
        if length is not None and length < config["COMPRESS_MIN_SIZE"]:
            return response
        return compress.after_request(response)
    return compressed_unless_small


def merge_vary_headers(response):
    """One ``Vary`` header listing every value: Flask-Compress appends Accept-Encoding to the first
    ``Vary`` and drops the others, so a page's ``Vary: Cookie`` (its language) would be lost."""
    values = response.headers.getlist("Vary")
    if len(values) > 1:
        response.headers["Vary"] = ", ".join(dict.fromkeys(v.strip() for value in values for v in value.split(",")))
    return response


def in_memory(response):
    """A static file read whole rather than streamed: Flask-Compress gzips only whole bodies (it offers
    streamed ones to brotli and zstd alone), and no file in static/ is larger than htmx's 52 KB."""
    response.direct_passthrough = False
    response.make_sequence()
    return response


#: static files sent brotli-compressed at its best (issue 42: a first visit's bytes): text ones, compressed once per
#: version (they are immutable under their hashed name), where Flask-Compress would spend a quick level per answer
BEST_COMPRESSED = frozenset({"text/css", "text/javascript", "application/javascript", "image/svg+xml"})


@lru_cache(maxsize=128)
def brotli_best(path: str, digest: str) -> bytes:
    """The file at ``path`` as it is at ``digest``, brotli at quality 11 (about 15 % smaller than Flask-Compress's
    quick zstd or brotli levels; htmx: 15.3 KB instead of 17.9)."""
    return brotli.compress(Path(path).read_bytes(), quality=11)


def best_compressed(response, path: str, digest: str):
    """A hashed static file for a client that takes brotli: its best-compressed body (Flask-Compress leaves an
    answer with a ``Content-Encoding`` as it is). Its strong ETag is marked as Flask-Compress marks its own."""
    if (response.status_code != 200 or response.mimetype not in BEST_COMPRESSED
            or not request.accept_encodings["br"]
            or (response.content_length or 0) < current_app.config["COMPRESS_MIN_SIZE"]):
        return response
    response.set_data(brotli_best(path, digest))
    response.headers["Content-Encoding"] = "br"
    response.vary.add("Accept-Encoding")
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(f"{etag}:br")
    return response


def serve_hashed_static(app) -> None:
    """``url_for('static', filename=…)`` links the hashed name; the static route serves it immutable."""
    digests = StaticDigests(app.static_folder)

    def link_hashed(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values:
            values["filename"] = digests.hashed_name(values["filename"])

    def static(filename: str):
        match = HASHED_NAME.match(filename)
        if match is None:
            return in_memory(current_app.send_static_file(filename))
        original = match["stem"] + match["suffix"]
        if digests.digest(original) != match["digest"]:  # a page from before a deployment: today's file, revalidated
            return in_memory(current_app.send_static_file(original))
        response = send_from_directory(app.static_folder, original, max_age=IMMUTABLE_MAX_AGE)
        response.cache_control.public = True
        response.cache_control.immutable = True
        return best_compressed(in_memory(response), os.path.join(app.static_folder, original), match["digest"])

    app.url_defaults(link_hashed)
    app.view_functions["static"] = static


def unguarded_host_warning(config) -> str | None:
    """The line a production start prints when any ``Host`` a request names is believed: without
    ``TRUSTED_HOSTS`` or ``SERVER_NAME``, a generated link (``view_url``, the QR code) can name a host an
    attacker chose."""
    if config.get("TRUSTED_HOSTS") or config.get("SERVER_NAME"):
        return None
    return ("WARNING: neither TRUSTED_HOSTS nor SERVER_NAME is set: links the app builds name whatever host "
            "a request gives (docs/deploy.md)")
