"""The ledger's errors: a small family of engine-style errors, each with a stable code.

The ledger knows nothing of HTTP: the web layer (``webapp/errors.py``, :func:`status_of`) gives each kind
its status. ``extra`` holds what the API's error body carries besides the code and the message (the
table's current ``version``, a hand ``number``, a ``limit``).
"""
from __future__ import annotations

from typing import Any

from scoring.errors import InvalidInput, MalformedInput, PaijuError
from scoring.i18n import Text, t


class TableError(PaijuError):
    """A ledger error. ``status``: only a caller outside the ledger that refuses with an HTTP status of its
    own sets one; the ledger's own kinds below get theirs from the web layer."""

    def __init__(self, message: Text, *, code: str, field: str | None = None, status: int | None = None,
                 **extra: Any):
        super().__init__(message, field=field, code=code)
        self.status = status
        self.extra = extra


class TableNotFound(TableError):
    """No such table, or no such hand at it."""


class NotAllowed(TableError):
    """The edit token is missing or wrong."""


class WriteConflict(TableError):
    """Someone else changed the table or the hand since the writer read it: nothing was written."""


class Busy(TableError):
    """Too many writers at once: the write gave up after its retries."""


class TableFull(TableError):
    """The table holds its limit of hands."""


def not_found(table_id: Any) -> TableError:
    return TableNotFound(t("没有这张牌桌（编号「{id}」）", "there is no table “{id}”", id=str(table_id)[:40]),
                         code="table_not_found", field="id")


def hand_not_found(number: Any) -> TableError:
    return TableNotFound(t("这张牌桌没有第{n}局", "this table has no hand {n}", n=str(number)[:20]),
                         code="hand_not_found", field="number")


def forbidden() -> TableError:
    return NotAllowed(t("只有持编辑链接的人才能修改这张牌桌（编辑令牌缺失或不对）",
                        "only the holder of the edit link can change this table (the edit token is "
                        "missing or wrong)"), code="forbidden", field="token")


def stale(current: int, given: int) -> TableError:
    return WriteConflict(t("这张牌桌刚被别人改过（你看到的是第{g}版，现在是第{v}版），没有保存；请刷新后再改",
                           "someone changed this table since you loaded it (you had version {g}, it is now "
                           "version {v}); nothing was saved: reload and try again", g=given, v=current),
                         code="stale_version", field="version", version=current)


def conflict(number: int, current: int) -> TableError:
    return WriteConflict(t("第{n}局在你打开之后被别人改过了：请选留哪一个版本",
                           "hand {n} was changed by someone else after you opened it: choose which version to "
                           "keep", n=number), code="edit_conflict", field="version", version=current,
                         number=number)


def changed_under_undo(number: int, current: int) -> TableError:
    return WriteConflict(t("第{n}局在你打开之后被别人改过了，没有撤销；请看过再决定",
                           "hand {n} was changed by someone else after you opened it; nothing was undone: look "
                           "at it first", n=number), code="edit_conflict", field="version",
                         version=current, number=number)


def not_last(number: int) -> TableError:
    return WriteConflict(t("第{n}局已经不是最后一局了（别人又记了一局），没有撤销",
                           "hand {n} is no longer the last hand (someone recorded another); nothing was undone",
                           n=number), code="not_last_hand", field="number")


def busy() -> TableError:
    return Busy(t("同时提交的人太多，请再试一次", "too many changes at once; please try again"), code="busy")


def table_full(limit: int) -> TableError:
    return TableFull(t("这张牌桌已记满{n}局，不能再记了；请开一张新牌桌接着记",
                       "this table holds its limit of {n} hands and takes no more; open a new table to go on",
                       n=limit), code="too_many_hands", field=None, limit=limit)


def circle_full(limit: int) -> TableError:
    return TableFull(t("这个牌友圈已有{n}晚，不能再接下一晚了；请开一张新牌桌，开始一个新的牌友圈",
                       "this circle holds its limit of {n} evenings and takes no next one; open a new table to "
                       "start a new circle", n=limit), code="too_many_evenings", field=None, limit=limit)


def bad_key() -> MalformedInput:
    return MalformedInput(t("「Idempotency-Key」应为1到128个可见的 ASCII 字符",
                            "“Idempotency-Key” must be 1 to 128 visible ASCII characters"),
                          field="Idempotency-Key", code="bad_idempotency_key")


def key_reused() -> TableError:
    return TableError(t("这个 Idempotency-Key 已经用来记过另一手牌：这次发来的内容不同，没有记下。要记新的一手，请用新的 key",
                        "this Idempotency-Key was already used to record a different hand: what was sent this time "
                        "differs, and nothing was recorded. Send a new hand with a new key"),
                      field="Idempotency-Key", code="idempotency_key_reused", status=422)


def seat_change_refused(message: Text, field: str = "seat") -> InvalidInput:
    return InvalidInput(message, field=field, code="seat_change")


def evening_closed(following: str) -> TableError:
    return WriteConflict(t("这一晚已经结束了：下一晚已经开了，这一局没有记下；请记到下一晚",
                           "this evening is closed: the next evening has been opened, and this hand was not "
                           "recorded; record it at the next evening"), code="evening_closed", field="id",
                         next=following)


def seats_changed(seated: list[str]) -> TableError:
    return WriteConflict(t("座位变了：现在坐的是{names}，这一局没有记下；请按现在的座位再看一遍",
                           "the seats have changed: now seated are {names}; this hand was not recorded: check it "
                           "against the seats as they are now", names=" · ".join(seated)),
                         code="seats_changed", field="seated", seated=seated)


def next_exists(following: str, players_differ: bool = False) -> TableError:
    """The API adds the next evening's ``view_url``."""
    message = (t("下一晚已经开了，玩家和这次给的不一样；没有再开一晚", "the next evening exists already, with other "
                 "players than these; no second evening was opened") if players_differ else
               t("下一晚已经开了，它的编辑链接已经换过：请向下一晚的人要链接",
                 "the next evening exists already and its edit link has been changed since: ask its players for "
                 "the link"))
    return WriteConflict(message, code="next_exists", field="players" if players_differ else "id",
                         id=following)
