"""The table ledger (issue 5): tables of players, their hands settled by the engine, and totals.

Anyone with a table's id can read it; every change needs the edit token (header ``X-Edit-Token`` in the
API; on the pages an HttpOnly cookie scoped to the table). The package, one idea per module:

* :mod:`.models` the tables and columns; :mod:`.db` the database set-up and migrations;
* :mod:`.service` the operations (record, edit, delete, undo, redo, …), with :mod:`.settling` (a hand
  settled, the state a game carries from hand to hand), :mod:`.seats`, :mod:`.idempotency`,
  :mod:`.cleaning` (what may be stored), :mod:`.queries` (the reads), :mod:`.shown` (results rendered
  per language), :mod:`.records` (what a write returns, as values), :mod:`.answers` (the API's reads),
  :mod:`.writes` (the write transaction) and :mod:`.errors` (the ledger's errors, no HTTP in them);
* the web layer: :mod:`.web` (limits, the edit cookie, set-up), :mod:`.api` (``/api/v1/tables…``),
  :mod:`.pages` with :mod:`.views` and :mod:`.forms`, :mod:`.following` (a table's next hand followed with
  the live page), :mod:`.settleup` (结账), :mod:`.exports` (the chart, QR codes, CSV).

What the service offers is importable from here.
"""
from __future__ import annotations

from .answers import hand_json, table_json
from .cleaning import MAX_NAME, MAX_SEATS, MIN_SEATS, clean_input, clean_name, clean_players
from .errors import TableError
from .idempotency import stored_answer, valid_key
from .models import LedgerHand, LedgerIdempotency, LedgerTable
from .queries import (check_token, find_table, get_table, hand_count, hand_facts, hand_numbered, hand_totals,
                      last_hand, load_table, table_version)
from .seats import change_seats
from .service import (MAX_HANDS, create_table, delete_hand, delete_table, edit_hand, purge_tables, record_hand,
                      redo_hand, rotate_token, undo_hand)
from .settling import table_carried

__all__ = ["MAX_HANDS", "MAX_NAME", "MAX_SEATS", "MIN_SEATS", "LedgerHand", "LedgerIdempotency", "LedgerTable",
           "TableError", "change_seats", "check_token", "clean_input", "clean_name", "clean_players",
           "create_table", "delete_hand", "delete_table", "edit_hand", "find_table", "get_table", "hand_count",
           "hand_facts", "hand_json", "hand_numbered", "hand_totals", "last_hand", "load_table", "purge_tables",
           "record_hand", "redo_hand", "rotate_token", "stored_answer", "table_carried", "table_json",
           "table_version", "undo_hand", "valid_key"]
