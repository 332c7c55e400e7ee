"""What the ledger draws and hands out besides its pages: the running totals as an SVG chart, QR codes of
a table's link, and the hands as CSV."""
from __future__ import annotations

import csv
import functools
import io
import json

import segno
from flask_babel import gettext
from markupsafe import Markup, escape

from scoring.i18n import render, t
from scoring.inputs import field_words
from scoring.registry import SLUGS, get_game

from sqlalchemy import select

from .db import db
from .models import LedgerHand, LedgerTable
from .paging import MOST_HANDS, page_from
from .queries import export_rows, hand_totals
from .table_rules import HandRules

COLORS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65")
CHART_POINTS = 60  # points per line in the chart, however many hands (a live change sends the chart)
CHART_DOTS = 40  # up to this many hands, each hand's point is marked with a dot


def chart_svg(players: list[str], points: list[tuple[int, list[int]]], count: int) -> Markup:
    """Cumulative score per player after each hand, as an inline SVG: ``points`` are (hand ordinal, totals)
    from (0, zeros) to (count, the totals), at most CHART_POINTS of them; whole-number coordinates keep
    it small (it goes out with every live change)."""
    width, height, pad_l, pad_r, pad_y = 320, 180, 34, 8, 12
    n = max(count, 1)
    values = [v for _, line in points for v in line] or [0]
    lo, hi = min(values + [0]), max(values + [0])
    if lo == hi:
        lo, hi = lo - 1, hi + 1

    def x(i):
        return round(pad_l + (width - pad_l - pad_r) * i / n)

    def y(v):
        return round(pad_y + (height - 2 * pad_y) * (hi - v) / (hi - lo))

    label = gettext("累计得分走势图")
    parts = [f'<svg class="ledger-chart" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
             f"<title>{escape(label)}</title>",
             f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{y(0)}" y2="{y(0)}" class="zero"/>',
             f'<text x="{pad_l - 4}" y="{y(hi) + 4}" text-anchor="end" class="axis">{hi}</text>',
             f'<text x="{pad_l - 4}" y="{y(lo)}" text-anchor="end" class="axis">{lo}</text>']
    if lo < 0 < hi:
        parts.append(f'<text x="{pad_l - 4}" y="{y(0) + 4}" text-anchor="end" class="axis">0</text>')
    dots = count <= CHART_DOTS
    if dots:
        parts.append(_dot_markers(len(players)))
    for seat in range(len(players)):
        line = " ".join(f"{x(i)},{y(totals[seat])}" for i, totals in points)
        marked = f' marker-mid="url(#ledger-dot-{seat})" marker-end="url(#ledger-dot-{seat})"' if dots else ""
        parts.append(f'<polyline fill="none" stroke="{seat_color(seat)}" stroke-width="2" points="{line}" '
                     f'data-seat="{seat}"{marked}><title>{escape(players[seat])}: {points[-1][1][seat]}</title>'
                     f'</polyline>')
    parts.append("</svg>")
    return Markup("".join(parts))


def _dot_markers(seats: int) -> str:
    """A dot per seat's colour, drawn by the polyline at each hand's point (not a circle per point: the
    chart goes out with every live change, and 40 hands of six seats' circles would be 11 KB)."""
    markers = (f'<marker id="ledger-dot-{seat}" viewBox="-3 -3 6 6" markerWidth="6" markerHeight="6" '
               f'markerUnits="userSpaceOnUse"><circle r="2.5" fill="{seat_color(seat)}"/></marker>'
               for seat in range(seats))
    return "<defs>" + "".join(markers) + "</defs>"


def seat_color(seat: int) -> str:
    return COLORS[seat % len(COLORS)]


@functools.lru_cache(maxsize=512)
def qr_svg(url: str) -> Markup:
    """The QR code of a table's read-only link, made once per link (the link names the table and the host)."""
    return Markup(segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#000", light="#fff",
                                                            omitsize=True))


@functools.lru_cache(maxsize=512)
def qr_file(url: str) -> bytes:
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", scale=6, border=2)
    return buf.getvalue()


# --- CSV -------------------------------------------------------------------------------

def _cell(value):
    """Spreadsheets run cells that start with = + - @: quote such text."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def csv_text(table: LedgerTable, lang: str, first: int = 1, rest=None) -> tuple[str, int | None]:
    """One row per hand from hand ``first`` on, as many as one read holds (:mod:`.paging`): the deltas, the running
    totals, the input field by field in words, the steps; then a last row of totals, or, when hands are left, a row
    naming the address of the rest (``rest(number)``). Begins with a BOM, which lets spreadsheets read the Chinese.
    Also returns the number the rest starts from (None: no hand is left)."""
    numbers, following = page_from(table.id, first, MOST_HANDS)
    game = get_game(table.game)
    book = HandRules(table)  # each hand's input in words under its own rules (those it was played with)
    fields = game.settle_input.fields
    out = io.StringIO()
    writer = csv.writer(out)
    names = [_cell(n) for n in table.players]
    writer.writerow([gettext("局")] + names + [gettext("%(n)s累计", n=n) for n in names]
                    + [render(f.label, lang) for f in fields] + [gettext("计算步骤")])
    running = hand_totals(table.id, len(table.players), before=numbers[0] if numbers else first)
    contexts: dict = {}
    for number, data, deltas, steps, seats, stored_rules in export_rows(table, lang, numbers):
        running = [a + b for a, b in zip(running, deltas)]
        rules = book.of(stored_rules)
        hand_ctx = contexts.get((rules.key, tuple(seats)))
        if hand_ctx is None:
            hand_ctx = contexts[rules.key, tuple(seats)] = game.input_context(rules, tuple(table.names_of(seats)))
        writer.writerow([number] + list(deltas) + running
                        + [_cell(_field_words(f, data, hand_ctx, lang)) for f in fields]
                        + [_cell(" / ".join(steps))])
    if following is None:
        writer.writerow([gettext("合计")] + running + [""] * (len(table.players) + len(fields) + 1))
    else:
        writer.writerow(["…", render(t("其余各局从第{n}局起：{url}", "the other hands, from hand {n}: {url}",
                                       n=following, url=rest(following) if rest else ""), lang)])
    return "\ufeff" + out.getvalue(), following


def _field_words(field, stored: dict, ctx, lang: str) -> str:
    words = field_words(field, stored, ctx)
    return render(words, lang) if words is not None else ""


def csv_filename(table: LedgerTable) -> str:
    """The CSV's file name: the game's slug (a stored game this version does not have: ``table``) and the id."""
    return f"paiju-{table.game if table.game in SLUGS else 'table'}-{table.id[:8]}.csv"


def stored_csv(table: LedgerTable) -> str:
    """Every stored hand as it is (number, players' names, deltas and input as stored JSON): the CSV of a
    table this version cannot read, which reads nothing through the game."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([gettext("局"), gettext("得失分"), gettext("座位"), gettext("输入")])
    writer.writerow(["", _cell(json.dumps(table.players, ensure_ascii=False, default=str)), "",
                     _cell(json.dumps({"game": table.game, "rules": table.rules}, ensure_ascii=False, default=str))])
    rows = db.session.execute(select(LedgerHand.number, LedgerHand.deltas, LedgerHand.seats, LedgerHand.input)
                              .where(LedgerHand.table_id == table.id).order_by(LedgerHand.number)).all()
    for number, deltas, seats, data in rows:
        writer.writerow([number] + [_cell(json.dumps(v, ensure_ascii=False, default=str)) for v in (deltas, seats, data)])
    return "\ufeff" + out.getvalue()
