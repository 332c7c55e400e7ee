"""Errors: the API answers in the contract's shape, pages with a friendly page."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadHost, HTTPException, SecurityError

from scoring.errors import (
    AmbiguousPlay,
    InputErrors,
    InvalidInput,
    InvalidNotation,
    MalformedInput,
    PaijuError,
    UnknownAction,
)
from scoring.i18n import render, t
from scoring.result_view import each_error  # noqa: F401  (what the pages use to list an error's problems)

from .api import error_response
from .forms import attach_error, label_of
from .i18n import current_lang, page_message

#: the HTTP status of each kind of engine error (the engine knows nothing of HTTP); a blueprint whose errors
#: need statuses of their own adds them (:func:`add_statuses`: the ledger's, in ``webapp/ledger/web.py``)
STATUS: list[tuple[type, int]] = [(UnknownAction, 404), (InvalidInput, 422), (AmbiguousPlay, 422),
                                  (MalformedInput, 400), (InvalidNotation, 400)]


def add_statuses(pairs) -> None:
    """Give these error kinds their HTTP statuses, ahead of the engine's (a subclass before its base)."""
    for pair in reversed(tuple(pairs)):
        if pair not in STATUS:
            STATUS.insert(0, pair)


def status_of(exc: PaijuError) -> int:
    explicit = getattr(exc, "status", None)  # an error raised by a page with a status of its own
    if explicit:
        return explicit
    if isinstance(exc, InputErrors):
        return 400 if exc.malformed else 422
    if isinstance(exc, InvalidNotation):
        return 400 if exc.malformed else 422
    return next((status for cls, status in STATUS if isinstance(exc, cls)), 400)


def error_messages(form, exc: PaijuError) -> list[str]:
    """Put every error on the form field it names; the messages no field took, for the top of the form."""
    attach = getattr(form, "attach", None) or (lambda field, message: attach_error(form, field, message))
    labels = getattr(form, "label_of", None) or (lambda path: label_of(form, path))
    names = seat_names(form)
    left = []
    for err in each_error(exc):
        message = page_message(err, label_of=labels if form is not None else None, names=names)
        if form is None or not attach(err.field, message):
            left.append(message)
    return left


def seat_names(form) -> tuple[str, ...] | None:
    """The players in the form's seats, when it knows each one's name: a table's (``seat_names``), or the names
    typed beside every seat; None otherwise (the messages then say 1号位)."""
    names = getattr(form, "seat_names", None)
    if names is None and callable(getattr(form, "names_given", None)):
        names = form.names_given()
    return tuple(names) if names and all(names) else None


_HTTP = {
    404: ("not_found", t("找不到这个地址", "no such address")),
    405: ("method_not_allowed", t("这个地址不支持该请求方法", "this address does not accept that method")),
    413: ("too_large", t("请求太大", "the request is too large")),
    415: ("unsupported_media_type", t("请求体应为 JSON，并带上 Content-Type: application/json",
                                      "the request body must be JSON, sent with Content-Type: application/json")),
    400: ("bad_request", t("请求有误", "bad request")),
}

REFUSED_HOST = t("这个服务器不接受该主机名（Host）", "this server does not answer for that host name")


def posted_from_this_site() -> bool:
    """The request names this site as its source: its Origin, or without one its Referer."""
    source = request.headers.get("Origin") or request.referrer or ""
    try:
        parts = urlsplit(source)
    except ValueError:  # not even a URL ("http://[")
        return False
    return bool(parts.netloc) and f"{parts.scheme}://{parts.netloc}/" == request.host_url


def _allow_header(exc: HTTPException) -> dict:
    """A 405 names the methods the address does accept (RFC 9110 §15.5.6)."""
    methods = getattr(exc, "valid_methods", None)
    return {"Allow": ", ".join(sorted(methods))} if exc.code == 405 and methods else {}


def render_error(status: int):
    return render_template("error.html", status=status), status


def init_app(app):
    @app.errorhandler(CSRFError)
    def _csrf(exc):
        """A form whose token failed (lost cookie, server restarted with a new key): keep what the
        player typed. Only a post from one of this site's own pages gets a ready form with a fresh
        token; a post from elsewhere shows what it carried, to copy, and arms nothing."""
        if request.path.startswith("/api/"):
            return error_response("csrf", t("表单令牌无效", "the form token is not valid"), 400)
        fields = [(k, v) for k, values in request.form.lists() if k != "csrf_token" for v in values]
        resubmit = request.full_path.rstrip("?") if posted_from_this_site() else None
        return render_template("error.html", status=400, csrf=True, resubmit=resubmit, fields=fields), 400

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        refused_host = isinstance(exc, (SecurityError, BadHost))  # outside TRUSTED_HOSTS, or not IDNA-encodable
        allow = _allow_header(exc)
        if request.path.startswith("/api/"):
            code, msg = _HTTP.get(exc.code, ("http_error", t("请求失败", "request failed")))
            resp, status = error_response(code, REFUSED_HOST if refused_host else msg, exc.code or 500)
            return resp, status, allow
        if refused_host:  # no URL was matched, so no page can build its links
            return render(REFUSED_HOST, current_lang()), 400, {"Content-Type": "text/plain; charset=utf-8"}
        return (*render_error(exc.code or 500), allow)

    @app.errorhandler(PaijuError)
    def _engine(exc: PaijuError):
        return engine_error_response(exc)


def engine_error_response(exc: PaijuError):
    """An engine error in the contract's shape; with every problem of the input under ``errors``."""
    resp, status = error_response(exc.code, exc.message, status_of(exc), exc.field)
    if isinstance(exc, InputErrors) and len(exc.errors) > 1:
        body = resp.get_json()
        body["errors"] = [error_response(e.code, e.message, 0, e.field)[0].get_json()["error"] for e in exc.errors]
        resp = jsonify(body)
    return resp, status
