"""Every message of the pages exists in both languages."""
from __future__ import annotations

from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "webapp/translations/en/LC_MESSAGES/messages.po"


def _msgids():
    method_map = [("webapp/**.py", "python"), ("templates/**.html", "jinja2")]
    keywords = {"_": None, "_l": None, "N_": None, "gettext": None, "lazy_gettext": None, "ngettext": (1, 2)}
    ids = set()
    for sub in ("webapp", "templates"):
        for _file, _line, message, _comments, _ctx in extract_from_dir(
                ROOT / sub, [(m.split("/", 1)[1], k) for m, k in method_map if m.startswith(sub)],
                keywords=keywords):
            ids.add(message if isinstance(message, str) else message[0])
    return ids


def test_every_page_message_has_an_english_translation():
    with PO.open("rb") as f:
        catalog = read_po(f)
    translated = {m.id for m in catalog if m.id and m.string}
    missing = sorted(_msgids() - translated)
    assert not missing, f"run `make translations` and translate: {missing}"


def test_compiled_catalog_matches_the_po_file():
    with PO.open("rb") as f:
        po = {m.id: m.string for m in read_po(f) if m.id}
    with PO.with_suffix(".mo").open("rb") as f:
        mo = {m.id: m.string for m in read_mo(f) if m.id}
    assert po == mo, "run `python tools/fill_translations.py` to recompile"
