"""Errors: the API answers in the contract's shape, pages with a friendly page."""
from __future__ import annotations

from flask import request
from werkzeug.exceptions import HTTPException

from scoring.errors import PaijuError
from scoring.i18n import t

from .api import error_response

_HTTP = {
    404: ("not_found", t("找不到这个地址", "no such address")),
    405: ("method_not_allowed", t("这个地址不支持该请求方法", "this address does not accept that method")),
    413: ("too_large", t("请求太大", "the request is too large")),
    400: ("bad_request", t("请求有误", "bad request")),
}


def init_app(app):
    from flask_wtf.csrf import CSRFError

    @app.errorhandler(CSRFError)
    def _csrf(exc):
        """A form whose token failed (lost cookie, server restarted with a new key): keep what
        the player typed and offer to send it again with a fresh token."""
        from flask import render_template
        if request.path.startswith("/api/"):
            return error_response("csrf", t("表单令牌无效", "the form token is not valid"), 400)
        fields = [(k, v) for k, values in request.form.lists() if k != "csrf_token" for v in values]
        return render_template("error.html", status=400, csrf=True, resubmit=request.path, fields=fields), 400

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        if request.path.startswith("/api/"):
            code, msg = _HTTP.get(exc.code, ("http_error", t("请求失败", "request failed")))
            return error_response(code, msg, exc.code or 500)
        from .pages import render_error
        return render_error(exc.code or 500)

    @app.errorhandler(PaijuError)
    def _engine(exc: PaijuError):
        return error_response(exc.code, exc.message, exc.status, exc.field)
