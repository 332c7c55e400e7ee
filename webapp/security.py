"""What every response carries for the browser's protection, the cookies' flags and the API's content type.

One small WSGI middleware instead of Flask-Talisman (last released in 2023): the policy is a handful of
constant headers, and HSTS / ``Secure`` follow the request's own scheme (``request.is_secure``, which
``PROXY_FIX`` makes honest behind a TLS-terminating proxy).
"""
from __future__ import annotations

import re

from flask import abort, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.exceptions import BadHost

#: no inline script or style anywhere: everything the pages run or wear comes from static/
CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",  # the service worker, /sw.js (webapp/pwa.py)
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "X-Content-Type-Options": "nosniff",
    # same-origin, not no-referrer: Flask-WTF checks the Referer of a form posted over HTTPS
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}

#: only over HTTPS: a browser ignores it on plain HTTP, and a development server must stay reachable
STRICT_TRANSPORT_SECURITY = "max-age=31536000"

#: methods whose body the JSON API reads; a browser can send a cross-site POST only as a form or text/plain
JSON_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class SessionCookiePerScheme(SecureCookieSessionInterface):
    """The session cookie is ``Secure`` whenever the request came over HTTPS.

    Savings on every request: the signing serializer is made once per secret key (Flask builds a new one
    each time), a request with no cookies at all gets its empty session without parsing any, and an empty
    session nobody touched is not saved."""

    def get_signing_serializer(self, app):
        key = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        cached = getattr(self, "_serializer", None)
        if cached is None or cached[0] != key:
            cached = self._serializer = (key, super().get_signing_serializer(app))
        return cached[1]

    def open_session(self, app, request):
        if not request.environ.get("HTTP_COOKIE"):  # nothing to read: an empty session, no cookie parsing
            return self.session_class() if app.secret_key else None
        return super().open_session(app, request)

    def save_session(self, app, session, response) -> None:
        if not session and not session.modified and not session.accessed:
            return  # nothing to write, clear or vary on (what Flask's would conclude, after its cookie settings)
        super().save_session(app, session, response)

    def get_cookie_secure(self, app) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


class SecurityHeaders:
    """WSGI middleware: each header of :data:`SECURITY_HEADERS` (and HSTS over HTTPS) that the response
    does not set itself, added as the response starts. Constant pairs appended to the header list: an
    ``after_request`` hook would have werkzeug check every value again on every response."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app
        self.plain = tuple((name.lower(), (name, value)) for name, value in SECURITY_HEADERS.items())
        hsts = ("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY)
        self.secure = (*self.plain, (hsts[0].lower(), hsts))

    def __call__(self, environ, start_response):
        added = self.secure if environ.get("wsgi.url_scheme") in ("https", "wss") else self.plain  # is_secure

        def start_with_headers(status, headers, exc_info=None):
            present = {name.lower() for name, _value in headers}
            headers = [*headers, *(pair for name, pair in added if name not in present)]
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, start_with_headers)


def require_json_body():
    """A JSON API's body must say it is JSON: 415 in the contract's shape otherwise. (An empty body carries
    nothing to forge; the endpoint answers it as malformed JSON.)"""
    req = request._get_current_object()  # the request itself: each read through the proxy is a context look-up
    if (req.method in JSON_BODY_METHODS and req.content_type != "application/json"  # the usual header, as is
            and not req.is_json and req.get_data(cache=True)):
        abort(415)


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def valid_host(host: str) -> bool:
    """A ``Host`` the app can name in its links: werkzeug's ``request.host`` is empty when the header has
    characters a host cannot have (``a b``, ``x@evil``); the port, when given, must be 1–65535."""
    if not host:
        return False
    name, colon, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    if not colon:  # no port: ``name`` is the whole host (rpartition put it in ``port``)
        name, port = port or name, ""
    if name in ("", "[]"):
        return False
    return not colon or (port.isascii() and port.isdigit() and 0 < int(port) < 65536)


def refuse_bad_host() -> None:
    """Every request with a ``Host`` that is not a valid host name (and port) is a 400 (docs/api.md, Errors),
    before any page or answer builds a link from it."""
    if not valid_host(request.host):
        raise BadHost()


#: a form field's name no form of the app has: a row number longer than any form grows (WTForms reads it with
#: int(), which refuses past 4,300 digits) or a name past any field's length
UNREADABLE_NAME = re.compile(r"\d{7,}|^.{201,}$", re.DOTALL)


def refuse_unreadable_form() -> None:
    """A posted form with a field name no form has (see :data:`UNREADABLE_NAME`) is a 400 before a form reads it."""
    req = request._get_current_object()
    if req.method != "POST" or req.mimetype not in FORM_TYPES or req.path.startswith("/api/"):
        return  # the JSON API reads no forms (a form posted to it is a 415: require_json_body)
    if any(UNREADABLE_NAME.search(k) for k in req.form):
        abort(400)


def init_app(app) -> None:
    app.session_interface = SessionCookiePerScheme()
    app.wsgi_app = SecurityHeaders(app.wsgi_app)
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_unreadable_form)
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_bad_host)


def check_json_bodies(app, json_apis) -> None:
    """Every request to the blueprints ``json_apis`` first has its body checked (:func:`require_json_body`)."""
    for name in json_apis:
        app.before_request_funcs.setdefault(name, []).insert(0, require_json_body)
