"""Fill the English catalog from tools/en.tsv (msgid<TAB>English), then compile.

Usage: python tools/fill_translations.py  (after `make translations` extracted new msgids)
Missing translations are listed; the test suite fails while any remain.
"""
from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "webapp/translations/en/LC_MESSAGES/messages.po"
TSV = ROOT / "tools/en.tsv"


def main() -> int:
    table = {}
    for line in TSV.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            zh, en = line.split("\t", 1)
            table[zh] = en
    with PO.open("rb") as f:
        catalog = read_po(f)
    missing = []
    for msg in catalog:
        if msg.id and msg.id in table:
            msg.string = table[msg.id]
            msg.flags.discard("fuzzy")
        elif msg.id and not msg.string:
            missing.append(msg.id)
    with PO.open("wb") as f:
        write_po(f, catalog, width=0)
    with PO.with_suffix(".mo").open("wb") as f:
        write_mo(f, catalog)
    for m in missing:
        print("missing:", m)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
