"""The edit link (issue 9): its token moves from the address into an HttpOnly,
SameSite=Lax cookie of the table's own path; the owner can share it again,
rotate it and delete the table; untouched tables are purged by a command.
On SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from test_ledger_db import lclient, ledger_app  # noqa: F401 - fixtures
from test_tables_api import Ledger, first_out
from test_tables_pages import csrf
from webapp.ledger import models as m
from webapp.ledger.db import db


@pytest.fixture
def led(lclient):  # noqa: F811
    return Ledger(lclient)


def created_table(led):
    status, out = led.call("POST", "tables", {"game": "q783", "players": ["甲", "乙", "丙"]})
    assert status == 201
    return out


def test_opening_the_edit_link_keeps_the_token_in_a_table_scoped_httponly_cookie_and_drops_it_from_the_address(
        ledger_app, led):
    out = created_table(led)
    browser = ledger_app.test_client()
    resp = browser.get(out["edit_url"].replace("http://localhost", ""))
    assert resp.status_code == 303
    assert resp.headers["Location"] == f"/tables/{out['id']}/edit" and out["edit_token"] not in resp.headers["Location"]
    cookie = resp.headers["Set-Cookie"]
    assert f"paiju_edit={out['edit_token']}" in cookie
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and f"Path=/tables/{out['id']}" in cookie
    page = browser.get(f"/tables/{out['id']}/edit")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "记下这一局" in html
    assert f"/edit/{out['edit_token']}" in html  # offered on purpose, in the owner's box, never in a link followed
    assert f'href="{out["edit_url"]}' not in html


def test_the_edit_pages_without_the_cookie_are_a_403(ledger_app, led):
    out = created_table(led)
    stranger = ledger_app.test_client()
    for path in ("/edit", "/edit/hands/1", "/edit/delete"):
        assert stranger.get(f"/tables/{out['id']}{path}").status_code == 403, path
    assert stranger.get(f"/tables/{out['id']}").status_code == 200


def test_the_cookie_of_one_table_is_not_sent_to_another(ledger_app, led):
    one, two = created_table(led), created_table(led)
    browser = ledger_app.test_client()
    browser.get(one["edit_url"])
    assert browser.get(f"/tables/{one['id']}/edit").status_code == 200
    assert browser.get(f"/tables/{two['id']}/edit").status_code == 403


def test_rotating_the_edit_link_stops_the_old_link_and_the_old_cookie(ledger_app, led):
    out = created_table(led)
    owner, other = ledger_app.test_client(), ledger_app.test_client()
    owner.get(out["edit_url"])
    other.get(out["edit_url"])
    page = owner.get(f"/tables/{out['id']}/edit").get_data(as_text=True)
    resp = owner.post(f"/tables/{out['id']}/edit/rotate", data={"csrf_token": csrf(page)})
    assert resp.status_code == 303
    fresh = owner.get_cookie("paiju_edit", path=f"/tables/{out['id']}").value
    assert fresh != out["edit_token"]
    rotated = owner.get(resp.headers["Location"]).get_data(as_text=True)
    assert "编辑链接已更换" in rotated and f"/edit/{fresh}" in rotated
    assert other.get(f"/tables/{out['id']}/edit").status_code == 403  # the old cookie
    assert ledger_app.test_client().get(out["edit_url"]).status_code == 403  # the old link
    assert led.add(out["id"], out["edit_token"], first_out(0))[0] == 403  # the old token in the API
    assert led.add(out["id"], fresh, first_out(0))[0] == 201


def test_rotating_needs_the_forms_csrf_token(ledger_app, led):
    out = created_table(led)
    owner = ledger_app.test_client()
    owner.get(out["edit_url"])
    assert owner.post(f"/tables/{out['id']}/edit/rotate", data={}).status_code == 400
    assert led.add(out["id"], out["edit_token"], first_out(0))[0] == 201


def test_deleting_the_table_asks_first_then_removes_it_with_its_hands(ledger_app, led):
    out = created_table(led)
    led.add(out["id"], out["edit_token"], first_out(0))
    owner = ledger_app.test_client()
    owner.get(out["edit_url"])
    ask = owner.get(f"/tables/{out['id']}/edit/delete")
    html = ask.get_data(as_text=True)
    assert ask.status_code == 200 and "确定删除牌桌" in html
    assert led.call("GET", f"tables/{out['id']}")[0] == 200
    done = owner.post(f"/tables/{out['id']}/edit/delete", data={"csrf_token": csrf(html)})
    assert done.status_code == 200 and "牌桌已删除" in done.get_data(as_text=True)
    assert led.call("GET", f"tables/{out['id']}")[0] == 404
    assert owner.get(f"/tables/{out['id']}").status_code == 404


def test_the_api_rotates_the_token_and_deletes_the_table_with_the_token_only(led):
    out = created_table(led)
    tid, token = out["id"], out["edit_token"]
    assert led.call("POST", f"tables/{tid}/token", token="wrong")[0] == 403
    status, rotated = led.call("POST", f"tables/{tid}/token", token=token)
    assert status == 200 and set(rotated) == {"edit_token", "edit_url"} and rotated["edit_token"] != token
    assert rotated["edit_token"] in rotated["edit_url"]
    assert led.call("DELETE", f"tables/{tid}", token=token)[0] == 403
    assert led.call("DELETE", f"tables/{tid}", token=rotated["edit_token"])[0] == 204
    assert led.call("GET", f"tables/{tid}")[0] == 404
    assert led.call("DELETE", f"tables/{tid}", token=rotated["edit_token"])[0] == 404


def test_purge_tables_deletes_the_tables_untouched_for_the_configured_days(ledger_app, led):
    old, recent = created_table(led), created_table(led)
    led.add(old["id"], old["edit_token"], first_out(0))
    with ledger_app.app_context():
        db.session.execute(update(m.LedgerTable).where(m.LedgerTable.id == old["id"])
                           .values(updated_at=m._now() - timedelta(days=181)))
        db.session.commit()
    result = ledger_app.test_cli_runner().invoke(args=["purge-tables"])
    assert result.exit_code == 0, result.output
    assert "purged 1 table" in result.output
    assert led.call("GET", f"tables/{old['id']}")[0] == 404
    assert led.call("GET", f"tables/{recent['id']}")[0] == 200
    result = ledger_app.test_cli_runner().invoke(args=["purge-tables", "--days", "0"])
    assert "purged 1 table" in result.output
    assert led.call("GET", f"tables/{recent['id']}")[0] == 404


def test_the_purge_age_comes_from_ledger_purge_days(ledger_app, led):
    out = created_table(led)
    with ledger_app.app_context():
        db.session.execute(update(m.LedgerTable).values(updated_at=m._now() - timedelta(days=10)))
        db.session.commit()
    ledger_app.config["LEDGER_PURGE_DAYS"] = 30
    assert "purged 0 table" in ledger_app.test_cli_runner().invoke(args=["purge-tables"]).output
    ledger_app.config["LEDGER_PURGE_DAYS"] = 7
    assert "purged 1 table" in ledger_app.test_cli_runner().invoke(args=["purge-tables"]).output
    assert led.call("GET", f"tables/{out['id']}")[0] == 404
