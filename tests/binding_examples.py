"""Every binding example of the rules (/work/shared/rules/*.md, kept as docs/rules/) that is one request to a
game's endpoint, in one list: ``EXAMPLES``, each an ``Example(slug, action, payload, expected, source)``.

- ``payload`` is the request body of ``POST /api/v1/<slug>/<action>``; where a test of tests/web already
  encoded the example, its payload is the one here.
- ``expected`` is what the rules say, as ``{path: value}``: a path names a field of the answer, with dots for
  nested fields and list indices (``"readings.0.lines"``); ``"status"`` is the HTTP status (200 unless given;
  ``"4xx"`` where the rules say only that the request is refused, or say 400 for what api.md lets be a 422).
- ``source`` names the rules file, its section and a short quote, so a reader finds the example.

The examples that are not one request are listed at the end of this module (``NOT_ONE_REQUEST``), with where
they are tested instead.
"""
from __future__ import annotations

from typing import Any, NamedTuple


class Example(NamedTuple):
    slug: str
    action: str
    payload: dict
    expected: dict
    source: str

    @property
    def rules_file(self) -> str:
        return self.source.split(" ", 1)[0]


def refused(field: str | None = None, code: str | None = None, status: Any = "4xx") -> dict:
    """What the rules say of a refused request: its status, and the field (and code) its error names."""
    out: dict = {"status": status}
    if field is not None:
        out["error.field"] = field
    if code is not None:
        out["error.code"] = code
    return out


def _check(slug, source, play, previous=None, rules=None, legal=True, **extra):
    payload = {"previous": previous, "play": play, **extra}
    if rules:
        payload["rules"] = rules
    expected = legal if isinstance(legal, dict) else {"legal": legal}
    return Example(slug, "check", payload, expected, source)


def _hint(slug, source, hand, previous=None, rules=None, extra=None, **expected):
    payload = {"hand": hand, "previous": previous, **(extra or {}), **({"rules": rules} if rules else {})}
    return Example(slug, "hint", payload, expected, source)


# ---------------------------------------------------------------------------------------------------------------
# common.md
# ---------------------------------------------------------------------------------------------------------------

SMALLEST = "common.md §Smallest legal play, 'Examples (binding)':"
COMMON = [
    _hint("paodekuai", f"{SMALLEST} 跑得快 52, table ♠5, hand ♠3 ♥3 ♣3 ♦3 ♠9 ♥K → ♠9",
          "♠3 ♥3 ♣3 ♦3 ♠9 ♥K", "♠5", smallest="♠9"),
    _hint("shuangkou", f"{SMALLEST} 双扣, table 9, hand 3 3 3 3 J → J", "3 3 3 3 J", "9", smallest="J"),
    _hint("shuangkou", f"{SMALLEST} 双扣, table 8 8, hand 3 3 3 3 J J → J J", "3 3 3 3 J J", "8 8",
          smallest="J J"),
    _hint("paodekuai", f"{SMALLEST} 跑得快 52, table ♠K, hand ♠9 ♥9 ♣9 ♦9 ♠3 ♥4 → the bomb",
          "♠9 ♥9 ♣9 ♦9 ♠3 ♥4", "♠K", smallest="♠9 ♥9 ♣9 ♦9"),
]

# ---------------------------------------------------------------------------------------------------------------
# paodekuai.md
# ---------------------------------------------------------------------------------------------------------------

ZSY, P52, P48, P45 = ({"preset": p} for p in ("zhengshangyou108", "paodekuai52", "paodekuai48", "paodekuai45"))
KICKERS = {**ZSY, "bomb_kickers": True}
PDK_PLAYS = "paodekuai.md §Examples, 'Plays':"


def _pdk_settle(source, rules, winner, cards_left, deltas, **extra):
    return Example("paodekuai", "settle", {"winner": winner, "cards_left": cards_left, **extra, "rules": rules},
                   {"deltas": deltas}, source)


def _pdk(source, play, previous=None, rules=None, legal=True, **extra):
    return _check("paodekuai", source, play, previous, rules, legal, **extra)


PAODEKUAI = [
    _pdk("paodekuai.md §Patterns zhengshangyou108, triple run: lead ♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠5 ♥5 → legal",
         "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠5 ♥5", None, ZSY),
    _pdk("paodekuai.md §Patterns zhengshangyou108, triple run: ♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠5 ♠6 → ♠6 ♥6 ♣6 ♠7 ♥7 ♣7 ♠9 ♥9",
         "♠6 ♥6 ♣6 ♠7 ♥7 ♣7 ♠9 ♥9", "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♠5 ♠6", ZSY),
    _pdk("paodekuai.md §Patterns zhengshangyou108, straight: '(reading: … so AA2233 is a pair run')",
         "♠A ♥A ♠2 ♥2 ♠3 ♥3", None, ZSY, {"legal": True, "reading.kind": "pair_run"}),
    _pdk("paodekuai.md §Patterns zhengshangyou108, bomb_kickers: ♠8 ♥8 ♣8 ♦8 ♠5 ♥6 → …♠3 ♥3 ♠4 ♥4 illegal",
         "♠9 ♥9 ♣9 ♦9 ♠3 ♥3 ♠4 ♥4", "♠8 ♥8 ♣8 ♦8 ♠5 ♥6", KICKERS, False),
    _pdk("paodekuai.md §Patterns zhengshangyou108, bomb_kickers: ♠8 ♥8 ♣8 ♦8 ♠5 ♥5 ♠6 ♥6 → …♠3 ♥3 ♠4 ♥4 legal",
         "♠9 ♥9 ♣9 ♦9 ♠3 ♥3 ♠4 ♥4", "♠8 ♥8 ♣8 ♦8 ♠5 ♥5 ♠6 ♥6", KICKERS),
    _pdk_settle("paodekuai.md §Examples, seed penalty: paodekuai52 | 0 | [0, 5, 13, 10]", P52, 0, [0, 5, 13, 10],
                [87, -5, -52, -30]),
    _pdk_settle("paodekuai.md §Examples, seed penalty: paodekuai48 | 1 | [4, 0, 12]", P48, 1, [4, 0, 12],
                [-4, 28, -24]),
    _pdk_settle("paodekuai.md §Examples, seed penalty: zhengshangyou108 | 3 | [1, 27, 7, 0]", ZSY, 3,
                [1, 27, 7, 0], [-1, -108, -7, 116]),
    _pdk_settle("paodekuai.md §Examples, per_card: winner 0, [0, 5, 13, 10] → [41, -5, -26, -10]",
                {**P52, "penalty": "per_card"}, 0, [0, 5, 13, 10], [41, -5, -26, -10]),
    _pdk_settle("paodekuai.md §Examples, per_card: winner 0, [0, 1, 3, 13] → [29, 0, -3, -26]",
                {**P52, "penalty": "per_card"}, 0, [0, 1, 3, 13], [29, 0, -3, -26]),
    _pdk(f"{PDK_PLAYS} zhengshangyou108 lead ♠A ♥2 ♣3 ♦4 ♠5 → legal (low straight)", "♠A ♥2 ♣3 ♦4 ♠5", None, ZSY),
    _pdk(f"{PDK_PLAYS} zhengshangyou108 lead ♠K ♥K ♠A ♥A ♠2 ♥2 → illegal (2 is only low)",
         "♠K ♥K ♠A ♥A ♠2 ♥2", None, ZSY, False),
    _pdk(f"{PDK_PLAYS} zhengshangyou108 lead ♠Q ♥K ♣A ♦2 ♠3 → illegal (no wrap)", "♠Q ♥K ♣A ♦2 ♠3", None, ZSY,
         False),
    _pdk(f"{PDK_PLAYS} zhengshangyou108 ♠5 ♥6 ♣7 ♦8 ♠9 → ♥3 ♥4 ♥5 ♥6 ♥7 legal (flush beats straight)",
         "♥3 ♥4 ♥5 ♥6 ♥7", "♠5 ♥6 ♣7 ♦8 ♠9", ZSY),
    _pdk(f"{PDK_PLAYS} zhengshangyou108 ♠2 ♥2 ♣2 ♦2 → ♠7 ♥7 ♣7 ♦7 ♠7 legal (5 cards beat 4)",
         "♠7 ♥7 ♣7 ♦7 ♠7", "♠2 ♥2 ♣2 ♦2", ZSY),
    _pdk(f"{PDK_PLAYS} zhengshangyou108 eight 2s → 大王 大王 小王 小王 legal (天王 is highest)",
         "大王 大王 小王 小王", "♠2 ♥2 ♣2 ♦2 ♠2 ♥2 ♣2 ♦2", ZSY),
    _pdk(f"{PDK_PLAYS} paodekuai48 lead ♠J ♥Q ♣K ♦A ♠2 → illegal (2 in a straight)", "♠J ♥Q ♣K ♦A ♠2", None, P48,
         False),
    _pdk(f"{PDK_PLAYS} paodekuai48 lead ♥A ♣A ♦A → legal, a bomb", "♥A ♣A ♦A", None, P48,
         {"legal": True, "reading.bomb": True}),
    _pdk(f"{PDK_PLAYS} paodekuai48 ♠8 ♥8 ♣8 ♠4 ♥4 → ♠10 ♥10 ♣10 ♦3 ♣7 legal (3带2, two singles)",
         "♠10 ♥10 ♣10 ♦3 ♣7", "♠8 ♥8 ♣8 ♠4 ♥4", P48),
    _pdk(f"{PDK_PLAYS} paodekuai48 ♠8 ♥8 ♣8 ♠4 ♥4 → ♠10 ♥10 ♣10 ♦3 illegal (3带1 vs 3带2)",
         "♠10 ♥10 ♣10 ♦3", "♠8 ♥8 ♣8 ♠4 ♥4", P48, False),
    _pdk(f"{PDK_PLAYS} paodekuai52 ♠8 ♥8 ♣8 ♠4 ♥4 → ♠3 ♥3 ♣3 ♦3 legal (bomb)", "♠3 ♥3 ♣3 ♦3", "♠8 ♥8 ♣8 ♠4 ♥4",
         P52),
    _pdk(f"{PDK_PLAYS} paodekuai52 ♠K ♥K ♣K ♠4 ♥4 → ♠9 ♥9 ♣9 ♦9 ♠3 ♦4 illegal (4带2 is no bomb)",
         "♠9 ♥9 ♣9 ♦9 ♠3 ♦4", "♠K ♥K ♣K ♠4 ♥4", P52, False),
]

# ---------------------------------------------------------------------------------------------------------------
# shuangkou.md
# ---------------------------------------------------------------------------------------------------------------

WILD = "shuangkou.md §Jokers are wild, 'Seed examples (binding)':"
SK_PLAYS = "shuangkou.md §Examples, 'Plays':"


def _read_as(source, cards, as_, rules=None, **more):
    payload = {"cards": cards, **({"rules": rules} if rules else {})}
    return Example("shuangkou", "classify", payload, {"valid": True, "readings.0.as": as_, **more}, source)


def _no_pattern(source, cards, rules=None):
    return Example("shuangkou", "classify", {"cards": cards, **({"rules": rules} if rules else {})},
                   {"valid": False}, source)


def _sk_settle(source, order, bombs, deltas, rules=None, **more):
    payload = {"finish_order": order, "bombs": bombs, **({"rules": rules} if rules else {})}
    return Example("shuangkou", "settle", payload, {"deltas": deltas, **more}, source)


def _sk(source, play, previous=None, legal=True, rules=None):
    return _check("shuangkou", source, play, previous, rules, legal)


SK_SETTLE = "shuangkou.md §Examples, settlement"
SHUANGKOU = [
    _read_as(f"{WILD} ♠7 ♥7 ♣7 ♦7 大王 = 77777 (5线)", "♠7 ♥7 ♣7 ♦7 大王", "7 7 7 7 7", **{"readings.0.lines": 5}),
    _read_as(f"{WILD} 4 5 6 7 8 大王 = 456789 (top 9)", "4 5 6 7 8 大王", "4 5 6 7 8 9"),
    _read_as(f"{WILD} 7 7 8 9 9 大王 = 778899", "7 7 8 9 9 大王", "7 7 8 8 9 9"),
    _read_as(f"{WILD} 7 7 8 9 大王 大王 = 778899", "7 7 8 9 大王 大王", "7 7 8 8 9 9"),
    _read_as(f"{WILD} 大王 2 2 2 = 2222", "大王 2 2 2", "2 2 2 2"),
    _read_as(f"{WILD} 3 3 4 4 5 大王 = 334455", "3 3 4 4 5 大王", "3 3 4 4 5 5"),
    _read_as(f"{WILD} 5 6 7 9 大王 = 56789", "5 6 7 9 大王", "5 6 7 8 9"),
    _no_pattern(f"{WILD} 3 3 4 4 大王 is no pattern", "3 3 4 4 大王"),
    _read_as(f"{WILD} 3 3 3 3 4 4 4 4 5 5 5 大王 = 4线3连环 (7线)", "3 3 3 3 4 4 4 4 5 5 5 大王",
             "3 3 3 3 4 4 4 4 5 5 5 5", **{"readings.0.lines": 7}),
    _sk_settle(f"{SK_SETTLE} 1: order [0, 2]; seat 0 6 of a kind, seat 1 天王 → [12, 4, 4, −20]", [0, 2],
               [{"seat": 0, "cards": "6 6 6 6 6 6"}, {"seat": 1, "cards": "大王 大王 小王 小王"}], [12, 4, 4, -20],
               multiplier=4),
    _sk_settle(f"{SK_SETTLE} 2: order [1, 0, 3, 2]; seat 3 five of a kind, seat 0 a 4-bomb → [−4, 4, −4, 4]",
               [1, 0, 3, 2], [{"seat": 3, "cards": "5 5 5 5 5"}, {"seat": 0, "cards": "4 4 4 4"}], [-4, 4, -4, 4],
               multiplier=2),
    _sk_settle(f"{SK_SETTLE} 3: order [2, 1, 3, 0] (平扣), no bombs → [1, −1, 1, −1]", [2, 1, 3, 0], [],
               [1, -1, 1, -1]),
    _sk_settle(f"{SK_SETTLE} 4: order [1, 3]; seat 2 8 of a kind → [−13, −7, 27, −7]", [1, 3],
               [{"seat": 2, "lines": 8}], [-13, -7, 27, -7], multiplier=1),
    _sk_settle(f"{SK_SETTLE} 5: order [0, 2]; seat 0 5线4连环 (9线) → [78, −58, 38, −58]", [0, 2],
               [{"seat": 0, "cards": "5 5 5 5 5 6 6 6 6 6 7 7 7 7 7 8 8 8 8 8"}], [78, -58, 38, -58],
               multiplier=16),
    _sk_settle(f"{SK_SETTLE} 5: … with cap_lines: 12 → ×32 → [126, −106, 86, −106]", [0, 2],
               [{"seat": 0, "lines": 9}], [126, -106, 86, -106], {"cap_lines": 12}, multiplier=32),
    _sk(f"{SK_PLAYS} 大王 小王 小王 (三王) → ♠6 ♥6 ♣6 ♦6 ♠6 ♥6 legal", "♠6 ♥6 ♣6 ♦6 ♠6 ♥6", "大王 小王 小王"),
    _sk(f"{SK_PLAYS} ♠2 ♥2 ♣2 ♦2 ♠2 ♥2 → 大王 大王 小王 小王 legal", "大王 大王 小王 小王", "♠2 ♥2 ♣2 ♦2 ♠2 ♥2"),
    _sk(f"{SK_PLAYS} 大王 大王 小王 小王 → 5 5 5 5 6 6 6 6 7 7 7 7 legal", "5 5 5 5 6 6 6 6 7 7 7 7",
        "大王 大王 小王 小王"),
    _sk(f"{SK_PLAYS} 5 5 5 5 6 6 6 6 7 7 7 7 → 9 9 9 9 9 9 9 legal", "9 9 9 9 9 9 9", "5 5 5 5 6 6 6 6 7 7 7 7"),
    _sk(f"{SK_PLAYS} A A A A → 3 3 3 3 3 legal", "3 3 3 3 3", "A A A A"),
    _sk(f"{SK_PLAYS} 7 7 7 7 7 → 8 8 8 8 8 legal", "8 8 8 8 8", "7 7 7 7 7"),
    _sk(f"{SK_PLAYS} 8 8 8 8 8 → 7 7 7 7 7 illegal", "7 7 7 7 7", "8 8 8 8 8", False),
    _sk(f"{SK_PLAYS} Q Q Q Q Q K K K K K A A A A A (8线) → 3 3 3 3 3 3 3 3 legal", "3 3 3 3 3 3 3 3",
        "Q Q Q Q Q K K K K K A A A A A"),
    _sk(f"{SK_PLAYS} lead K K K K A A A A 2 2 2 2 → illegal (2 in a chain)", "K K K K A A A A 2 2 2 2", None, False),
    _sk(f"{SK_PLAYS} lead 10 J Q K A legal", "10 J Q K A"),
    _sk(f"{SK_PLAYS} lead J Q K A 2 illegal", "J Q K A 2", None, False),
    _sk(f"{SK_PLAYS} lead 5 5 6 6 illegal (pair run needs 3 pairs)", "5 5 6 6", None, False),
    _sk(f"{SK_PLAYS} lead 5 5 5 6 6 6 illegal by default", "5 5 5 6 6 6", None, False),
    _sk(f"{SK_PLAYS} 4 4 5 5 6 6 → 7 7 8 9 9 大王 legal (778899)", "7 7 8 9 9 大王", "4 4 5 5 6 6"),
    _sk(f"{SK_PLAYS} 3 4 5 6 7 8 → 4 5 6 7 8 大王 legal (456789 beats 345678)", "4 5 6 7 8 大王", "3 4 5 6 7 8"),
    _sk(f"{SK_PLAYS} 9 9 → 7 大王 illegal (reads as 77)", "7 大王", "9 9", False),
]

# ---------------------------------------------------------------------------------------------------------------
# q783.md
# ---------------------------------------------------------------------------------------------------------------

Q_PLAYS = "q783.md §Examples, 'Plays':"
BANKS = [100, 100, 100, 100]
ROUNDS = [{"winner": 0, "cards": "♠Q"}, {"winner": 2, "cards": "♥Q ♥7 ♥8 ♥3"},
          {"winner": 1, "cards": "♠4 ♥4 ♣4 ♦4 ♠4"}]
POINTS = {"winner": "points", "penalty": 50}
Q_HAND = "q783.md §Examples, hand settlement, solo, banks [100, 100, 100, 100], penalty 50:"
Q_TEAMS = "q783.md §Examples, 'Teams (0 & 2 vs 1 & 3)':"


def _q(source, play, previous=None, legal=True, rules=None, **extra):
    return _check("q783", source, play, previous, rules, legal, **extra)


def _q_settle(source, body, expected, rules=None):
    payload = {"players": 4, "teams": False, **body, **({"rules": rules} if rules else {})}
    return Example("q783", "settle", payload, expected, source)


Q783 = [
    Example("q783", "hint", {"hand": "♠Q ♠5 ♥4", "previous": None}, refused("hand", "score_card_in_hand", 422),
            "q783.md §Cards, 'Examples (binding)': hint, hand ♠Q ♠5 ♥4 → 422 score_card_in_hand"),
    _q("q783.md §Cards, 'Examples (binding)': check ♠Q from hand ♠Q ♠A ♥4 → legal", "♠Q", hand="♠Q ♠A ♥4"),
    _q("q783.md §Cards, 'Examples (binding)': check ♠Q from hand ♠Q ♠A ♥4, ace_scores → 422 score_card_in_hand",
       "♠Q", None, refused("hand", "score_card_in_hand", 422), {"ace_scores": True}, hand="♠Q ♠A ♥4"),
    _q_settle("q783.md §Play and payouts, winner: points (binding): seat 1 ♠Q, seat 2 four 4s → [−95, −75, 265, −95]",
              {"banks": BANKS, "rounds": [{"winner": 1, "cards": "♠Q"}, {"winner": 2, "cards": "♠4 ♥4 ♣4 ♦4"}],
               "finish_order": [3]}, {"deltas": [-95, -75, 265, -95]}, POINTS),
    _q_settle("q783.md §Play and payouts, winner: points (binding): seat 1 ♠Q, seat 2 ♠Q ♥Q, a draw → [−10, 10, 10, −10]",
              {"banks": BANKS, "rounds": [{"winner": 1, "cards": "♠Q"}, {"winner": 2, "cards": "♠Q ♥Q"}],
               "finish_order": [3]}, {"deltas": [-10, 10, 10, -10]}, POINTS),
    _q_settle("q783.md §Play and payouts, banks cannot go negative (binding): banks [10, 100, 100, 100], seat 1 four 4s",
              {"banks": [10, 100, 100, 100], "rounds": [{"winner": 1, "cards": "♠4 ♥4 ♣4 ♦4"}], "finish_order": [1]},
              {"deltas": [-10, 90, -40, -40], "banks": [0, 190, 60, 60], "game_over": True}),
    _q_settle("q783.md §Play and payouts, banks cannot go negative (binding): the same round then seat 2 ♠Q → 422",
              {"banks": [10, 100, 100, 100], "finish_order": [1],
               "rounds": [{"winner": 1, "cards": "♠4 ♥4 ♣4 ♦4"}, {"winner": 2, "cards": "♠Q"}]},
              refused("rounds[1]", "game_over", 422)),
    _q(f"{Q_PLAYS} lead ♠Q ♥7 ♥8 ♣3 → 副Q783", "♠Q ♥7 ♥8 ♣3", None,
       {"legal": True, "reading.kind": "q783", "reading.pure": False}),
    _q(f"{Q_PLAYS} lead ♥Q ♥7 ♥8 ♥3 → 正Q783", "♥Q ♥7 ♥8 ♥3", None,
       {"legal": True, "reading.kind": "q783", "reading.pure": True}),
    _q(f"{Q_PLAYS} lead ♠5 ♥5 → illegal (score cards are not played)", "♠5 ♥5", None, False),
    _q(f"{Q_PLAYS} lead 大王 → illegal", "大王", None, False),
    _q(f"{Q_PLAYS} ♠4 ♥4 ♣4 → ♠Q ♥Q ♣Q legal", "♠Q ♥Q ♣Q", "♠4 ♥4 ♣4"),
    _q(f"{Q_PLAYS} ♠2 → ♠3 legal", "♠3", "♠2"),
    _q(f"{Q_PLAYS} ♠2 → ♠A illegal", "♠A", "♠2", False),
    _q(f"{Q_PLAYS} ♠Q ♥Q → ♠7 ♥7 ♣7 illegal (size differs)", "♠7 ♥7 ♣7", "♠Q ♥Q", False),
    _q(f"{Q_PLAYS} ♠Q ♥Q → ♠Q ♥7 ♥8 ♣3 legal", "♠Q ♥7 ♥8 ♣3", "♠Q ♥Q"),
    _q(f"{Q_PLAYS} ♠Q ♥7 ♥8 ♣3 → ♦Q ♣7 ♠8 ♥3 illegal (副 does not beat 副)", "♦Q ♣7 ♠8 ♥3", "♠Q ♥7 ♥8 ♣3", False),
    _q(f"{Q_PLAYS} ♠Q ♥7 ♥8 ♣3 → ♦Q ♦7 ♦8 ♦3 legal (正 beats 副)", "♦Q ♦7 ♦8 ♦3", "♠Q ♥7 ♥8 ♣3"),
    _q(f"{Q_PLAYS} ♦Q ♦7 ♦8 ♦3 → ♠4 ♥4 ♣4 ♦4 legal", "♠4 ♥4 ♣4 ♦4", "♦Q ♦7 ♦8 ♦3"),
    _q(f"{Q_PLAYS} ♠7 ♥7 ♣7 ♦7 → ♠Q ♥Q ♣Q ♦Q legal", "♠Q ♥Q ♣Q ♦Q", "♠7 ♥7 ♣7 ♦7"),
    _q(f"{Q_PLAYS} ♠7 ♥7 ♣7 ♦7 → ♠8 ♥8 ♣8 ♦8 illegal", "♠8 ♥8 ♣8 ♦8", "♠7 ♥7 ♣7 ♦7", False),
    _q(f"{Q_PLAYS} ♠Q ♥Q ♣Q ♦Q → ♠4 ♥4 ♣4 ♦4 ♠4 legal (5 cards beat 4)", "♠4 ♥4 ♣4 ♦4 ♠4", "♠Q ♥Q ♣Q ♦Q"),
    _q(f"{Q_PLAYS} three_bombs: ♠Q ♥Q → ♠4 ♥4 ♣4 legal", "♠4 ♥4 ♣4", "♠Q ♥Q", True, {"three_bombs": True}),
    _q(f"{Q_PLAYS} three_bombs: ♠Q ♥7 ♥8 ♣3 → ♠4 ♥4 ♣4 illegal", "♠4 ♥4 ♣4", "♠Q ♥7 ♥8 ♣3", False,
       {"three_bombs": True}),
    _q(f"{Q_PLAYS} double_q783: seven 4s → ♠Q ♥Q ♠7 ♥7 ♠8 ♥8 ♠3 ♥3 legal", "♠Q ♥Q ♠7 ♥7 ♠8 ♥8 ♠3 ♥3",
       "♠4 ♥4 ♣4 ♦4 ♠4 ♥4 ♣4", True, {"double_q783": True}),
    _q(f"{Q_PLAYS} double_q783: eight 4s → ♥Q ♥Q ♥7 ♥7 ♥8 ♥8 ♥3 ♥3 illegal", "♥Q ♥Q ♥7 ♥7 ♥8 ♥8 ♥3 ♥3",
       "♠4 ♥4 ♣4 ♦4 ♠4 ♥4 ♣4 ♦4", False, {"double_q783": True}),
    # the table's rows, each round alone (penalty 0 and seat 3 out, as tests/web/test_q783_settle.py gives them)
    _q_settle(f"{Q_HAND} seat 0 | ♠Q (plain) | 0 +15, others −5", {"banks": BANKS, "rounds": ROUNDS[:1],
              "finish_order": [3]}, {"deltas": [15, -5, -5, -5]}, {"penalty": 0}),
    _q_settle(f"{Q_HAND} seat 2 | ♥Q ♥7 ♥8 ♥3 (正Q783) | 2 +120, others −40", {"banks": BANKS, "rounds": ROUNDS[1:2],
              "finish_order": [3]}, {"deltas": [-40, -40, 120, -40]}, {"penalty": 0}),
    _q_settle(f"{Q_HAND} seat 1 | five 4s (5-bomb) | 1 +150, others −50", {"banks": BANKS, "rounds": ROUNDS[2:],
              "finish_order": [3]}, {"deltas": [-50, 150, -50, -50]}, {"penalty": 0}),
    _q_settle(f"{Q_HAND} 'Banks now [25, 205, 165, 5]' (before the penalty)", {"banks": BANKS, "rounds": ROUNDS,
              "finish_order": [2]}, {"banks": [25, 205, 165, 5]}, {"penalty": 0}),
    _q_settle(f"{Q_HAND} seat 2 goes out first → banks [0, 155, 245, 0], deltas [−100, 55, 145, −100], over",
              {"banks": BANKS, "rounds": ROUNDS, "finish_order": [2]},
              {"deltas": [-100, 55, 145, -100], "banks": [0, 155, 245, 0], "game_over": True}, {"penalty": 50}),
    _q_settle(f"{Q_HAND} scoring: cards, winners played 1, 4 and 5 cards → before the penalty [−30, 50, 30, −50]",
              {"banks": BANKS, "finish_order": [2],
               "rounds": [{"winner": 0, "cards": "♠Q"}, {"winner": 2, "count": 4}, {"winner": 1, "count": 5}]},
              {"deltas": [-30, 50, 30, -50]}, {"scoring": "cards", "penalty": 0}),
    _q_settle(f"{Q_TEAMS} seat 0 wins a round with a pair → team A +10, team B −10",
              {"teams": True, "banks": BANKS, "rounds": [{"winner": 0, "cards": "♠9 ♥9"}], "finish_order": [0, 2]},
              {"deltas": [5, -5, 5, -5]}, {"team_penalty": 0}),
    _q_settle(f"{Q_TEAMS} finish order [1, 3] → team B wins, seats 0 and 2 each pay 100",
              {"teams": True, "banks": [200] * 4, "rounds": [{"winner": 0, "cards": "♠9 ♥9"}], "finish_order": [1, 3]},
              {"deltas": [-95, 95, -95, 95]}),
    _q_settle(f"{Q_TEAMS} finish order [0, 1, 3] → draw, no penalty",
              {"teams": True, "banks": [200] * 4, "rounds": [{"winner": 0, "cards": "♠9 ♥9"}],
               "finish_order": [0, 1, 3]}, {"deltas": [5, -5, 5, -5]}),
]

# ---------------------------------------------------------------------------------------------------------------
# hongwu.md
# ---------------------------------------------------------------------------------------------------------------

BID = "hongwu.md §Deal and bidding, the opening bid 'Examples (binding; hongwu/bidding, start 2)':"
HW = "hongwu.md §Examples (binding; 庄家 seat 0 unless said)"
HW_TRICKS = "hongwu.md §Examples, 'Tricks':"
TIERS = "hongwu.md §Points and settlement, tiers_321 'Examples (binding; 庄家 seat 0, tiers_321, base 2)':"


def _bid(source, bids, expected, rules=None):
    return Example("hongwu", "bidding", {"start": 2, "bids": bids, **({"rules": rules} if rules else {})},
                   expected, source)


def _hw_settle(source, deltas, declarer=0, bid=100, won=0, bottom=0, took=False, red_fives=(), rules=None):
    payload = {"declarer": declarer, "bid": bid, "declarer_points": won, "bottom_points": bottom,
               "declarer_took_bottom": took, "red_fives": list(red_fives), **({"rules": rules} if rules else {})}
    return Example("hongwu", "settle", payload, {"deltas": deltas}, source)


def _trick(slug, source, trump, plays, winner):
    return Example(slug, "trick", {"trump": trump, "plays": plays}, {"winner": winner}, source)


def _shape(slug, source, trump, cards, kind):
    return Example(slug, "classify", {"trump": trump, "cards": cards}, {"readings.0.kind": kind}, source)


TIERS_3 = {"preset": "tiers_321", "decks": 3}
HONGWU = [
    _bid(f"{BID} [75, pass, pass, pass] → complete, 庄家 seat 2 at 75", [75, "pass", "pass", "pass"],
         {"legal": True, "complete": True, "declarer": 2, "bid": 75}),
    _bid(f"{BID} [80] → illegal (a first bid is at most 75)", [80], {"legal": False}),
    _bid(f"{BID} [pass, 80] → illegal", ["pass", 80], {"legal": False}),
    _bid(f"{BID} 3 decks: [105, pass, pass, pass] → 庄家 seat 2 at 105", [105, "pass", "pass", "pass"],
         {"legal": True, "complete": True, "declarer": 2, "bid": 105}, {"decks": 3}),
    _bid(f"{BID} 3 decks: [110] → illegal", [110], {"legal": False}, {"decks": 3}),
    _hw_settle(f"{TIERS} 3 decks, bid 120, won 205 → [6, −2, −2, −2]", [6, -2, -2, -2], bid=120, won=205,
               rules=TIERS_3),
    _hw_settle(f"{TIERS} 3 decks, bid 120, won 210 → [12, −4, −4, −4] (半空)", [12, -4, -4, -4], bid=120, won=210,
               rules=TIERS_3),
    _hw_settle(f"{TIERS} 3 decks, won 240 + bottom 60 scored = 300 → [18, −6, −6, −6] (全空)", [18, -6, -6, -6],
               bid=120, won=240, bottom=60, took=True, rules=TIERS_3),
    _hw_settle(f"{TIERS} 2 decks, bid 120, won 100, seat 1's red five captured by the 庄家 → [8, −4, −2, −2]",
               [8, -4, -2, -2], bid=120, won=100, red_fives=[{"owner": 1, "captured_by": 0}],
               rules={"preset": "tiers_321"}),
    _hw_settle(f"{HW} 1. bid 100, won 120, bottom 15 scored → [12, −4, −4, −4]", [12, -4, -4, -4], won=120,
               bottom=15, took=True),
    _hw_settle(f"{HW} 2. bid 100, won 60, bottom 20 not scored → [−12, 4, 4, 4]", [-12, 4, 4, 4], won=60, bottom=20),
    _hw_settle(f"{HW} 3. bid 150, won 150, no bottom → [−6, 2, 2, 2]", [-6, 2, 2, 2], bid=150, won=150),
    _hw_settle(f"{HW} 4. 庄家 seat 1, bid 80, won 90, bottom 10, red five captured by seat 3 → [2, −8, 2, 4]",
               [2, -8, 2, 4], declarer=1, bid=80, won=90, bottom=10, took=True,
               red_fives=[{"owner": 1, "captured_by": 3}]),
    _hw_settle(f"{HW} 5. bid 200, won 120, no bottom, 庄家 seat 3 → [6, 6, 6, −18]", [6, 6, 6, -18], declarer=3,
               bid=200, won=120),
    _hw_settle(f"{HW} 6. bid 60, won 140 → [18, −6, −6, −6]", [18, -6, -6, -6], bid=60, won=140),
    _hw_settle(f"{HW} 7. bid 100, won 75, bottom 10, seat 2's red five captured by the 庄家 → [8, −2, −4, −2]",
               [8, -2, -4, -2], won=75, bottom=10, took=True, red_fives=[{"owner": 2, "captured_by": 0}]),
    _trick("hongwu", f"{HW_TRICKS} T = ♥: 大王, ♥5, 小王, ♠2 → 1", "♥", ["大王", "♥5", "小王", "♠2"], 1),
    _trick("hongwu", f"{HW_TRICKS} T = ♥: ♥5, ♥5, ♠3, ♦3 → 0", "♥", ["♥5", "♥5", "♠3", "♦3"], 0),
    _trick("hongwu", f"{HW_TRICKS} T = ♥: ♦3, ♥3, ♠A, ♥A → 1", "♥", ["♦3", "♥3", "♠A", "♥A"], 1),
    _trick("hongwu", f"{HW_TRICKS} T = ♠: ♣2, ♦2, ♥2, ♠A → 0", "♠", ["♣2", "♦2", "♥2", "♠A"], 0),
    _trick("hongwu", f"{HW_TRICKS} T = ♠: ♣2, ♠2 → 1", "♠", ["♣2", "♠2"], 1),
    _trick("hongwu", f"{HW_TRICKS} T = ♠: ♣K ♣K, ♠3 ♠3 → 1", "♠", ["♣K ♣K", "♠3 ♠3"], 1),
    _trick("hongwu", f"{HW_TRICKS} T = ♠: ♣K ♣K, ♠4 ♠6 → 0", "♠", ["♣K ♣K", "♠4 ♠6"], 0),
    _trick("hongwu", f"{HW_TRICKS} T = ♠: ♥4 ♥4 ♥6 ♥6, ♥9 ♥9 ♥10 ♥10 → 1", "♠", ["♥4 ♥4 ♥6 ♥6", "♥9 ♥9 ♥10 ♥10"],
           1),
    Example("hongwu", "check", {"trump": "♠", "lead": "♣K ♣K", "hand": "♣9 ♣9 ♣4 ♥A", "play": "♣9 ♣4"},
            {"legal": False}, "hongwu.md §Examples, 'Follow checks': lead ♣K ♣K, play ♣9 ♣4 → illegal"),
    Example("hongwu", "check", {"trump": "♠", "lead": "♣K ♣K", "hand": "♣9 ♣9 ♣4 ♥A", "play": "♣9 ♣9"},
            {"legal": True}, "hongwu.md §Examples, 'Follow checks': lead ♣K ♣K, play ♣9 ♣9 → legal"),
    _shape("hongwu", "hongwu.md §Patterns, tractor: hearts 4 4 6 6 is a tractor (♥5 is gone)", "♠", "♥4 ♥4 ♥6 ♥6",
           "tractor"),
    _shape("hongwu", "hongwu.md §Patterns, tractor: clubs 4 4 5 5 with T = ♠ is a tractor", "♠", "♣4 ♣4 ♣5 ♣5",
           "tractor"),
    _shape("hongwu", "hongwu.md §Patterns, tractor: 大王 大王 小王 小王 is two pairs, not a tractor", "♠",
           "大王 大王 小王 小王", "throw"),
    _shape("hongwu", "hongwu.md §Patterns, pair: ♠2♣2 is not a pair", "♥", "♠2 ♣2", "throw"),
]

# ---------------------------------------------------------------------------------------------------------------
# erqiwang.md
# ---------------------------------------------------------------------------------------------------------------

EQ = "erqiwang.md §Examples (binding; 庄家 seat 0, partner seat 2)"
EQ_TRICKS = "erqiwang.md §Examples, 'Tricks (T = ♠)':"
CHONGGUAN = "erqiwang.md §Examples, '冲关 values':"


def _eq_settle(source, bid, points, expected, rules=None, **extra):
    payload = {"declarer": 0, "bid": bid, "defender_points": points, **extra, **({"rules": rules} if rules else {})}
    return Example("erqiwang", "settle", payload, expected if isinstance(expected, dict) else {"deltas": expected},
                   source)


def _value(source, counts, value):
    return _eq_settle(source, 80, 50, {"chongguan.0.value": value}, chongguan=[{"seat": 1, **counts}])


ERQIWANG = [
    *(_eq_settle(f"{EQ}, settlement | {bid} | {points} | {deltas}", bid, points, deltas)
      for bid, points, deltas in [(60, 100, [-4, 4, -4, 4]), (60, 140, [-6, 6, -6, 6]), (80, 50, [1, -1, 1, -1]),
                                  (80, 35, [2, -2, 2, -2]), (60, 0, [8, -8, 8, -8]), (40, 65, [-8, 8, -8, 8]),
                                  (55, 25, [4, -4, 4, -4]), (45, 45, [-2, 2, -2, 2])]),
    _eq_settle(f"{EQ}, 'With 冲关': bid 80, 闲家 50, seat 1 declared 3 王 + 正7对 → [−1, 3, −1, −1]", 80, 50,
               [-1, 3, -1, -1], chongguan=[{"seat": 1, "jokers": 3, "trump7_pairs": 1}]),
    _eq_settle(f"{EQ}, 'With sides: solo': bid 80, 闲家 50 → [3, −1, −1, −1]", 80, 50, [3, -1, -1, -1],
               {"sides": "solo"}),
    _eq_settle("erqiwang.md §Points and settlement, 冲关 'Example (binding; sides: solo, 庄家 seat 0)' → [1, 5, −3, −3]",
               80, 50, [1, 5, -3, -3], {"sides": "solo"}, chongguan=[{"seat": 1, "jokers": 3, "trump7_pairs": 1}]),
    _value(f"{CHONGGUAN} 4 王 + 正7对 + 负7对 + 正2对 + 负2对 = 7",
           {"jokers": 4, "trump7_pairs": 1, "off7_pairs": 1, "trump2_pairs": 1, "off2_pairs": 1}, 7),
    _value(f"{CHONGGUAN} 3 王 + 正7对 + 3 负7对 + 正2对 + 3 负2对 = 9",
           {"jokers": 3, "trump7_pairs": 1, "off7_pairs": 3, "trump2_pairs": 1, "off2_pairs": 3}, 9),
    _value(f"{CHONGGUAN} 3 王 + 负7对 (no 正7对) = 1", {"jokers": 3, "off7_pairs": 1}, 1),
    _value(f"{CHONGGUAN} 3 王 + 正7对 + 正2对 (no 负7对) = 2", {"jokers": 3, "trump7_pairs": 1, "trump2_pairs": 1}, 2),
    _value(f"{CHONGGUAN} from cards, T = ♠: 大王 大王 小王 ♠7 ♠7 ♥7 ♥7 → 3",
           {"cards": "大王 大王 小王 ♠7 ♠7 ♥7 ♥7", "trump": "♠"}, 3),
    _trick("erqiwang", f"{EQ_TRICKS} ♥7, ♠7, 大王, ♦7 → 2", "♠", ["♥7", "♠7", "大王", "♦7"], 2),
    _trick("erqiwang", f"{EQ_TRICKS} ♥7, ♦7 → 0 (副7s tie)", "♠", ["♥7", "♦7"], 0),
    _trick("erqiwang", f"{EQ_TRICKS} ♥A ♥A, ♠3 ♠3 → 1 (trump pair ruffs)", "♠", ["♥A ♥A", "♠3 ♠3"], 1),
    _shape("erqiwang", f"{EQ_TRICKS} ♥8 ♥8 ♥6 ♥6 is a tractor", "♠", "♥8 ♥8 ♥6 ♥6", "tractor"),
    _shape("erqiwang", f"{EQ_TRICKS} 小王 小王 ♠7 ♠7 is a tractor", "♠", "小王 小王 ♠7 ♠7", "tractor"),
    _shape("erqiwang", f"{EQ_TRICKS} ♥7 ♥7 ♦7 ♦7 is not (a tractor)", "♠", "♥7 ♥7 ♦7 ♦7", "throw"),
]

# ---------------------------------------------------------------------------------------------------------------
# variants.md
# ---------------------------------------------------------------------------------------------------------------

PER_CARD = {**P48, "penalty": "per_card"}


def _v(n: int, name: str) -> str:
    return f"variants.md §{n}. {name}, 'Examples (binding)':"


V1, V2, V3, V4, V5 = (_v(1, "paodekuai45"), _v(2, "bomb_points"), _v(3, "zhaniao"), _v(4, "baopei"),
                      _v(5, "baoben"))
V6, V7, V8, V9 = _v(6, "baodan_max"), _v(7, "spade3_first"), _v(8, "full_kickers"), _v(9, "wild_over_eight")
V10, V11, V12 = _v(10, "contribution: doubling"), _v(11, "failed_throw"), _v(12, "bottom_bonus")

PAODEKUAI45 = [
    _pdk_settle(f"{V1} paodekuai45 | 1 | [11, 0, 12] → [−22, 58, −36]", P45, 1, [11, 0, 12], [-22, 58, -36]),
    _pdk_settle(f"{V1} paodekuai45 | 0 | [0, 15, 7] → [67, −60, −7]", P45, 0, [0, 15, 7], [67, -60, -7]),
    _pdk_settle(f"{V1} paodekuai45, per_card | 2 | [7, 15, 0] → [−7, −30, 37]", {**P45, "penalty": "per_card"}, 2,
                [7, 15, 0], [-7, -30, 37]),
    Example("paodekuai", "settle", {"winner": 0, "cards_left": [0, 16, 3], "rules": P45},
            refused("cards_left[1]", status=422), f"{V1} rejected: [0, 16, 3] (field cards_left[1])"),
    Example("paodekuai", "settle", {"winner": 0, "cards_left": [0, 5, 6, 7], "rules": P45},
            refused("cards_left", status=422), f"{V1} rejected: [0, 5, 6, 7] (field cards_left)"),
    Example("paodekuai", "settle", {"winner": 0, "cards_left": [0, 5, 6], "rules": {**P45, "aaa_top": True}},
            refused("rules.aaa_top", "option_not_for_preset", 422), f"{V1} rejected: aaa_top: true (rules.aaa_top)"),
    _pdk_settle(f"{V1} … while aaa_top: false → [11, −5, −6]", {**P45, "aaa_top": False}, 0, [0, 5, 6], [11, -5, -6]),
    _pdk(f"{V1} rejected: check ♠3 ♥3 ♣3 ♦3 → ♠Q ♥Q ♣Q ♦Q with aaa_top: true → 422 (rules.aaa_top)",
         "♠Q ♥Q ♣Q ♦Q", "♠3 ♥3 ♣3 ♦3", {**P45, "aaa_top": True}, refused("rules.aaa_top", "option_not_for_preset", 422)),
    _pdk(f"{V1} plays: lead ♠A legal", "♠A", None, P45),
    _pdk(f"{V1} plays: lead ♠K ♥K ♣K legal (a triple, not a bomb)", "♠K ♥K ♣K", None, P45,
         {"legal": True, "reading.kind": "triple"}),
    _pdk(f"{V1} plays: ♠K ♥K ♣K ♠4 ♥4 → ♠Q ♥Q ♣Q ♦Q legal (bomb)", "♠Q ♥Q ♣Q ♦Q", "♠K ♥K ♣K ♠4 ♥4", P45),
    _pdk(f"{V1} plays: ♠A → ♠2 legal", "♠2", "♠A", P45),
    *(_pdk(f"{V1} plays: lead {card} → 400 (not in this deck)", card, None, P45,
           refused("play", "card_not_in_deck")) for card in ("♥A", "♦K", "♥2")),
]

BOMB_POINTS = [
    _pdk_settle(f"{V2} 1. paodekuai48, per_card, bomb_points 10; winner 0, [0, 5, 9], bomb by seat 1 → [4, 15, −19]",
                {**PER_CARD, "bomb_points": 10}, 0, [0, 5, 9], [4, 15, -19], bombs=[{"seat": 1}]),
    _pdk_settle(f"{V2} 1. … the same with cards ♠9 ♥9 ♣9 ♦9 → [4, 15, −19]", {**PER_CARD, "bomb_points": 10}, 0,
                [0, 5, 9], [4, 15, -19], bombs=[{"seat": 1, "cards": "♠9 ♥9 ♣9 ♦9"}]),
    _pdk_settle(f"{V2} 2. paodekuai52, seed, stake 2, bomb_points 5; winner 3, [13, 4, 1, 0], two bombs by seat 3",
                {**P52, "stake": 2, "bomb_points": 5}, 3, [13, 4, 1, 0], [-124, -28, -22, 174],
                bombs=[{"seat": 3}, {"seat": 3}]),
    _pdk_settle(f"{V2} 3. default bomb_points 0: winner 0, [0, 5, 13, 10], bomb by seat 2 → unchanged", P52, 0,
                [0, 5, 13, 10], [87, -5, -52, -30], bombs=[{"seat": 2}]),
    Example("paodekuai", "settle", {"winner": 0, "cards_left": [0, 5, 9], "bombs": [{"seat": 3}],
                                    "rules": {**PER_CARD, "bomb_points": 10}},
            refused("bombs[0].seat", status=422), f"{V2} 4. rejected: bombs [{{seat: 3}}] (no seat 3)"),
    Example("paodekuai", "settle", {"winner": 0, "cards_left": [0, 5, 9], "bombs": [{"seat": 1, "cards": "♠9 ♥9"}],
                                    "rules": {**PER_CARD, "bomb_points": 10}},
            refused("bombs[0].cards", "not_a_bomb", 422), f"{V2} 4. rejected: bombs [{{seat: 1, cards: ♠9 ♥9}}]"),
]

CARDS_BIRD, ALL_BIRD = {**PER_CARD, "zhaniao": "cards"}, {**PER_CARD, "zhaniao": "all"}
ZHANIAO = [
    _pdk_settle(f"{V3} zhaniao cards | 0 | heart10 0 | [0, 6, 10] → [32, −12, −20]", CARDS_BIRD, 0, [0, 6, 10],
                [32, -12, -20], heart10=0),
    _pdk_settle(f"{V3} zhaniao cards | 0 | heart10 2 | [0, 6, 16] → [70, −6, −64]", CARDS_BIRD, 0, [0, 6, 16],
                [70, -6, -64], heart10=2),
    _pdk_settle(f"{V3} zhaniao cards, bomb_points 10 | 1 | 1 | [4, 0, 8], bomb by 0 → [12, 14, −26]",
                {**CARDS_BIRD, "bomb_points": 10}, 1, [4, 0, 8], [12, 14, -26], heart10=1, bombs=[{"seat": 0}]),
    _pdk_settle(f"{V3} zhaniao all, bomb_points 10 | 1 | 1 | [4, 0, 8], bomb by 0 → [22, 4, −26]",
                {**ALL_BIRD, "bomb_points": 10}, 1, [4, 0, 8], [22, 4, -26], heart10=1, bombs=[{"seat": 0}]),
    _pdk_settle(f"{V3} zhaniao cards | 0 | 1 | [0, 1, 5] → [5, 0, −5]", CARDS_BIRD, 0, [0, 1, 5], [5, 0, -5],
                heart10=1),
    _pdk_settle(f"{V3} paodekuai52 seed, zhaniao cards | 0 | 2 | [0, 5, 13, 10] → [139, −5, −104, −30]",
                {**P52, "zhaniao": "cards"}, 0, [0, 5, 13, 10], [139, -5, -104, -30], heart10=2),
    _pdk_settle(f"{V3} paodekuai52 seed, zhaniao off | 0 | 2 | [0, 5, 13, 10] → [87, −5, −52, −30]",
                {**P52, "zhaniao": "off"}, 0, [0, 5, 13, 10], [87, -5, -52, -30], heart10=2),
    Example("paodekuai", "settle", {"winner": 0, "cards_left": [0, 1, 1, 1], "heart10": 0,
                                    "rules": {**ZSY, "zhaniao": "cards"}},
            refused("rules.zhaniao", status=422), f"{V3} rejected: zhengshangyou108 with zhaniao cards"),
    Example("paodekuai", "settle", {"winner": 0, "cards_left": [0, 6, 10], "rules": CARDS_BIRD},
            refused("heart10", status=422), f"{V3} rejected: zhaniao cards without heart10"),
    Example("paodekuai", "settle", {"winner": 0, "cards_left": [0, 6, 10], "heart10": 5, "rules": CARDS_BIRD},
            refused("heart10", status=422), f"{V3} rejected: heart10 5 in a 3-player preset"),
]

PAYS = {**PER_CARD, "baopei": True}
BAOPEI = [
    _pdk_settle(f"{V4} 1 | let_go 0 | [5, 0, 9] → [−14, 14, 0]", PAYS, 1, [5, 0, 9], [-14, 14, 0], let_go=0),
    _pdk_settle(f"{V4} 1 | 0 | [3, 0, 16] → [−35, 35, 0]", PAYS, 1, [3, 0, 16], [-35, 35, 0], let_go=0),
    _pdk_settle(f"{V4} 2 | 1 | [7, 4, 0], bomb_points 10, bomb by 0 → [20, −21, 1]", {**PAYS, "bomb_points": 10}, 2,
                [7, 4, 0], [20, -21, 1], let_go=1, bombs=[{"seat": 0}]),
    _pdk_settle(f"{V4} 0 | 3 | paodekuai52 seed, [0, 5, 13, 10] → [87, 0, 0, −87]", {**P52, "baopei": True}, 0,
                [0, 5, 13, 10], [87, 0, 0, -87], let_go=3),
    _pdk_settle(f"{V4} 1 | 0 | [5, 0, 9], zhaniao cards, heart10 2 → [−23, 23, 0]", {**PAYS, "zhaniao": "cards"}, 1,
                [5, 0, 9], [-23, 23, 0], let_go=0, heart10=2),
    _pdk_settle(f"{V4} 1 | null | [5, 0, 9] → [−5, 14, −9]", PAYS, 1, [5, 0, 9], [-5, 14, -9], let_go=None),
    _pdk_settle(f"{V4} 0 | 3 | baopei false, paodekuai52 seed → [87, −5, −52, −30]", {**P52, "baopei": False}, 0,
                [0, 5, 13, 10], [87, -5, -52, -30], let_go=3),
    Example("paodekuai", "settle", {"winner": 1, "cards_left": [5, 0, 9], "let_go": 1, "rules": PAYS},
            refused("let_go", status=422), f"{V4} rejected: let_go = the winner"),
    Example("paodekuai", "settle", {"winner": 1, "cards_left": [5, 0, 9], "let_go": 3, "rules": PAYS},
            refused("let_go", status=422), f"{V4} rejected: let_go 3 in a 3-player preset"),
]

BAOBEN = [
    _pdk_settle(f"{V5} paodekuai48, baoben false, winner 0, [0, 1, 16] → [33, −1, −32]",
                {**PER_CARD, "baoben": False}, 0, [0, 1, 16], [33, -1, -32]),
    _pdk_settle(f"{V5} paodekuai48, default baoben true, winner 0, [0, 1, 16] → [32, 0, −32]", PER_CARD, 0,
                [0, 1, 16], [32, 0, -32]),
    _pdk_settle(f"{V5} paodekuai52, baoben false, winner 0, [0, 1, 3, 13] → [30, −1, −3, −26]",
                {**P52, "penalty": "per_card", "baoben": False}, 0, [0, 1, 3, 13], [30, -1, -3, -26]),
]

MAX = {**P48, "baodan_max": True}
BAODAN_MAX = [
    _pdk(f"{V6} lead ♠9, hand ♠9 ♥K ♣4 → illegal", "♠9", None, MAX, False, hand="♠9 ♥K ♣4", next_cards_left=1),
    _pdk(f"{V6} lead ♥K → legal", "♥K", None, MAX, hand="♠9 ♥K ♣4", next_cards_left=1),
    _pdk(f"{V6} lead ♣4 ♦4, hand ♣4 ♦4 ♥K → legal (not a single)", "♣4 ♦4", None, MAX, hand="♣4 ♦4 ♥K",
         next_cards_left=1),
    _pdk(f"{V6} ♠8 → ♠9, hand ♠9 ♥K → illegal", "♠9", "♠8", MAX, False, hand="♠9 ♥K", next_cards_left=1),
    _pdk(f"{V6} ♠8 → ♥K → legal", "♥K", "♠8", MAX, hand="♠9 ♥K", next_cards_left=1),
    _pdk(f"{V6} lead ♠9, hand ♠9 ♥K ♣4, next_cards_left 2 → legal", "♠9", None, MAX, hand="♠9 ♥K ♣4",
         next_cards_left=2),
    _pdk(f"{V6} baodan_max false: lead ♠9, hand ♠9 ♥K ♣4, next 1 → legal", "♠9", None,
         {**P48, "baodan_max": False}, hand="♠9 ♥K ♣4", next_cards_left=1),
    _pdk(f"{V6} paodekuai52: lead ♥A, hand ♠2 ♥A ♣3 → illegal", "♥A", None, {**P52, "baodan_max": True}, False,
         hand="♠2 ♥A ♣3", next_cards_left=1),
    _pdk(f"{V6} lead ♥K, hand ♠K ♥K ♣4 → legal (either K)", "♥K", None, MAX, hand="♠K ♥K ♣4", next_cards_left=1),
    _pdk(f"{V6} lead ♠9 with next 1 and no hand → 422 (field hand)", "♠9", None, MAX, refused("hand", status=422),
         next_cards_left=1),
    _pdk(f"{V6} next_cards_left 0 → 422 (field next_cards_left)", "♠9", None, MAX,
         refused("next_cards_left", status=422), hand="♠9 ♥K", next_cards_left=0),
    _hint("paodekuai", f"{V6} hint: hand ♠9 ♥K ♣4, previous ♠8, next 1 → plays [♥K], smallest ♥K", "♠9 ♥K ♣4", "♠8",
          MAX, {"next_cards_left": 1}, plays=["♥K"], smallest="♥K"),
    _hint("paodekuai", f"{V6} hint lead: hand ♠9 ♥K ♣4 ♦4, next 1 → plays ♣4 ♦4 and ♥K, smallest ♣4 ♦4",
          "♠9 ♥K ♣4 ♦4", None, MAX, {"next_cards_left": 1}, plays=["♣4 ♦4", "♥K"], smallest="♣4 ♦4"),
]

SPADE3 = {**P48, "spade3_first": True}
SPADE3_FIRST = [
    _pdk(f"{V7} ♥4 ♣4, hand ♠3 ♥4 ♣4 ♦9 → illegal", "♥4 ♣4", None, SPADE3, False, hand="♠3 ♥4 ♣4 ♦9",
         first_play=True),
    _pdk(f"{V7} ♠3 ♥3, hand ♠3 ♥3 ♦9 → legal", "♠3 ♥3", None, SPADE3, hand="♠3 ♥3 ♦9", first_play=True),
    _pdk(f"{V7} ♠3 ♠4 ♥5 ♣6 ♦7, hand those + ♦9 → legal", "♠3 ♠4 ♥5 ♣6 ♦7", None, SPADE3,
         hand="♠3 ♠4 ♥5 ♣6 ♦7 ♦9", first_play=True),
    _pdk(f"{V7} first_play false: ♥4 ♣4 → legal", "♥4 ♣4", None, SPADE3, hand="♠3 ♥4 ♣4 ♦9", first_play=False),
    _pdk(f"{V7} spade3_first false: ♥4 ♣4 with first_play true → legal", "♥4 ♣4", None,
         {**P48, "spade3_first": False}, hand="♠3 ♥4 ♣4 ♦9", first_play=True),
    _pdk(f"{V7} hand ♥4 ♣4 ♦9 (no ♠3), ♥4 ♣4 → illegal", "♥4 ♣4", None, SPADE3, False, hand="♥4 ♣4 ♦9",
         first_play=True),
    _pdk(f"{V7} first_play true with previous ♠5 → 422 (field first_play)", "♥4 ♣4", "♠5", SPADE3,
         refused("first_play", status=422), first_play=True),
    _hint("paodekuai", f"{V7} hint: hand ♠3 ♥4 ♣4, first play → plays [♠3], smallest ♠3", "♠3 ♥4 ♣4", None,
          SPADE3, {"first_play": True}, plays=["♠3"], smallest="♠3"),
]

FULL = {**P48, "full_kickers": True}
FULL_KICKERS = [
    _pdk(f"{V8} lead ♠8 ♥8 ♣8 ♠4, hand + ♥9 → illegal", "♠8 ♥8 ♣8 ♠4", None, FULL, False, hand="♠8 ♥8 ♣8 ♠4 ♥9"),
    _pdk(f"{V8} lead ♠8 ♥8 ♣8 ♠4, hand exactly → legal", "♠8 ♥8 ♣8 ♠4", None, FULL, hand="♠8 ♥8 ♣8 ♠4"),
    _pdk(f"{V8} lead ♠8 ♥8 ♣8, hand ♠8 ♥8 ♣8 ♠4 ♥4 → illegal", "♠8 ♥8 ♣8", None, FULL, False,
         hand="♠8 ♥8 ♣8 ♠4 ♥4"),
    _pdk(f"{V8} lead ♠8 ♥8 ♣8, hand exactly those 3 → legal", "♠8 ♥8 ♣8", None, FULL, hand="♠8 ♥8 ♣8"),
    _pdk(f"{V8} lead ♠8 ♥8 ♣8, no hand → illegal", "♠8 ♥8 ♣8", None, FULL, False),
    _pdk(f"{V8} ♠7 ♥7 ♣7 ♠4 ♥4 → ♠8 ♥8 ♣8 ♦3, hand exactly → legal (8 > 7)", "♠8 ♥8 ♣8 ♦3", "♠7 ♥7 ♣7 ♠4 ♥4",
         FULL, hand="♠8 ♥8 ♣8 ♦3"),
    _pdk(f"{V8} ♠7 ♥7 ♣7 ♠4 ♥4 → ♠8 ♥8 ♣8 ♦3, default rules → illegal", "♠8 ♥8 ♣8 ♦3", "♠7 ♥7 ♣7 ♠4 ♥4", P48,
         False, hand="♠8 ♥8 ♣8 ♦3"),
    _pdk(f"{V8} ♠9 ♥9 ♣9 ♠4 ♥4 → ♠8 ♥8 ♣8 ♦3, hand exactly → illegal (8 < 9)", "♠8 ♥8 ♣8 ♦3", "♠9 ♥9 ♣9 ♠4 ♥4",
         FULL, False, hand="♠8 ♥8 ♣8 ♦3"),
    _pdk(f"{V8} ♠7 ♥7 ♣7 ♠4 ♥4 → ♠8 ♥8 ♣8, hand exactly → legal", "♠8 ♥8 ♣8", "♠7 ♥7 ♣7 ♠4 ♥4", FULL,
         hand="♠8 ♥8 ♣8"),
    _pdk(f"{V8} lead ♠8 ♥8 ♣8 ♠4 ♥9 (3带2), hand those + ♦J → legal", "♠8 ♥8 ♣8 ♠4 ♥9", None, FULL,
         hand="♠8 ♥8 ♣8 ♠4 ♥9 ♦J"),
    _pdk(f"{V8} lead ♠3 ♥3 ♣3 ♠4 ♥4 ♣4, hand those + ♦9 → illegal", "♠3 ♥3 ♣3 ♠4 ♥4 ♣4", None, FULL, False,
         hand="♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♦9"),
    _pdk(f"{V8} lead ♠3 ♥3 ♣3 ♠4 ♥4 ♣4, hand exactly → legal", "♠3 ♥3 ♣3 ♠4 ♥4 ♣4", None, FULL,
         hand="♠3 ♥3 ♣3 ♠4 ♥4 ♣4"),
    _pdk(f"{V8} lead ♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♦9, hand exactly → legal (short-winged last 飞机)", "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♦9",
         None, FULL, hand="♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♦9"),
    _pdk(f"{V8} lead ♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♦9, default rules → illegal", "♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♦9", None, P48, False,
         hand="♠3 ♥3 ♣3 ♠4 ♥4 ♣4 ♦9"),
    _pdk(f"{V8} paodekuai52: lead ♠A ♥A ♣A, hand those + ♦9 → legal (AAA is a bomb)", "♠A ♥A ♣A", None,
         {**P52, "full_kickers": True}, hand="♠A ♥A ♣A ♦9"),
    _pdk(f"{V8} zhengshangyou108 with full_kickers → 422 (rules.full_kickers)", "♠3", None,
         {**ZSY, "full_kickers": True}, refused("rules.full_kickers", status=422)),
    _hint("paodekuai", f"{V8} hint: hand ♠8 ♥8 ♣8 ♦3, previous ♠7 ♥7 ♣7 ♠4 ♥4 → plays [♠8 ♥8 ♣8 ♦3]", "♠8 ♥8 ♣8 ♦3",
          "♠7 ♥7 ♣7 ♠4 ♥4", FULL, plays=["♠8 ♥8 ♣8 ♦3"], smallest="♠8 ♥8 ♣8 ♦3"),
]

OVER = {"wild_over_eight": True}
FOURS, FIVES6 = "4 4 4 4 4 4 4 4", "5 5 5 5 5 5"
CHAIN8 = "5 5 5 5 5 5 5 5 6 6 6 6 6 6 6 6 7 7 7 7 7 7 7 7"


def _lines(source, cards, lines, rules):
    return Example("shuangkou", "classify", {"cards": cards, "rules": rules}, {"readings.0.lines": lines}, source)


WILD_OVER_EIGHT = [
    _lines(f"{V9} classify 4×8 大王 → 9", f"{FOURS} 大王", 9, OVER),
    _lines(f"{V9} classify 5×6 大王 大王 小王 → 9", f"{FIVES6} 大王 大王 小王", 9, OVER),
    _lines(f"{V9} classify 4×8 大王 大王 小王 小王 → 12", f"{FOURS} 大王 大王 小王 小王", 12, OVER),
    _lines(f"{V9} preset baibian: 4×8 大王 大王 → 10", f"{FOURS} 大王 大王", 10, {**OVER, "preset": "baibian"}),
    _no_pattern(f"{V9} preset baibian: 4×8 大王 小王 → no pattern", f"{FOURS} 大王 小王", {**OVER, "preset": "baibian"}),
    _no_pattern(f"{V9} default rules: 4×8 大王 → no pattern", f"{FOURS} 大王"),
    _sk(f"{V9} plays: 9×8 → 4×8 大王 legal", f"{FOURS} 大王", "9 9 9 9 9 9 9 9", True, OVER),
    _sk(f"{V9} plays: 8线3连环 5×8 6×8 7×8 → 4×8 大王 大王 小王 legal", f"{FOURS} 大王 大王 小王", CHAIN8, True, OVER),
    _sk(f"{V9} plays: the reverse → illegal", CHAIN8, f"{FOURS} 大王 大王 小王", False, OVER),
    _sk_settle(f"{V9} settlement 1. order [0, 2], seat 0 4×8 + four jokers, cap_lines 12 → [798, −778, 758, −778]",
               [0, 2], [{"seat": 0, "cards": f"{FOURS} 大王 大王 小王 小王"}], [798, -778, 758, -778],
               {**OVER, "cap_lines": 12}, multiplier=256),
    _sk_settle(f"{V9} settlement 2. order [0, 2], seat 1 lines 12 → [−7, 27, −7, −13]", [0, 2],
               [{"seat": 1, "lines": 12}], [-7, 27, -7, -13], OVER),
    Example("shuangkou", "settle", {"finish_order": [0, 2], "bombs": [{"seat": 1, "lines": 12}]},
            refused("bombs[0].lines", status=422), f"{V9} settlement 2. … without the option: 422"),
    _sk_settle(f"{V9} settlement 3. order [0, 2], seat 0 4×8 大王 大王, cap_lines 8 → [78, −58, 38, −58]", [0, 2],
               [{"seat": 0, "cards": f"{FOURS} 大王 大王"}], [78, -58, 38, -58], OVER),
    Example("shuangkou", "settle", {"finish_order": [0, 2], "bombs": [{"seat": 0, "lines": 13}], "rules": OVER},
            refused("bombs[0].lines", status=422), f"{V9} settlement 4. lines 13 → 422 (bombs[0].lines)"),
]

DOUBLING = {"contribution": "doubling"}
CONTRIBUTION_DOUBLING = [
    _sk_settle(f"{V10} [0, 2] | 0: 6 6 6 6 6 6 → [24, −16, 8, −16]", [0, 2], [{"seat": 0, "cards": "6 6 6 6 6 6"}],
               [24, -16, 8, -16], DOUBLING, multiplier=4),
    _sk_settle(f"{V10} [1, 3] | 2: 8×8 → [−19, −13, 45, −13]", [1, 3], [{"seat": 2, "cards": "8 8 8 8 8 8 8 8"}],
               [-19, -13, 45, -13], DOUBLING, multiplier=1),
    _sk_settle(f"{V10} [0, 2] | 0: lines 9 → [144, −80, 16, −80]", [0, 2], [{"seat": 0, "lines": 9}],
               [144, -80, 16, -80], DOUBLING, multiplier=16),
    _sk_settle(f"{V10} [0, 2] | 1: 大王 大王 小王 小王 → [−5, 21, −5, −11]", [0, 2],
               [{"seat": 1, "cards": "大王 大王 小王 小王"}], [-5, 21, -5, -11], DOUBLING, multiplier=1),
    _sk_settle(f"{V10} [1, 0, 3, 2] | 3: five 5s, 0: four 4s → [−4, 4, −4, 4]", [1, 0, 3, 2],
               [{"seat": 3, "cards": "5 5 5 5 5"}, {"seat": 0, "cards": "4 4 4 4"}], [-4, 4, -4, 4], DOUBLING,
               multiplier=2),
    _sk_settle(f"{V10} [0, 2] | 0: 4×8 + four jokers, wild_over_eight, cap_lines 12 → [1536, −1024, 512, −1024]",
               [0, 2], [{"seat": 0, "cards": f"{FOURS} 大王 大王 小王 小王"}], [1536, -1024, 512, -1024],
               {**DOUBLING, **OVER, "cap_lines": 12}, multiplier=256),
]

OTHERS = ["♦K ♦K ♣4", "♣5", "♣6"]
SINGLE_FIRST = {"failed_throw": "single_first"}


def _throw(source, rules, hand, play, others, legal, forced):
    payload = {"trump": "♠", "lead": None, "hand": hand, "play": play, "others": others,
               **({"rules": rules} if rules else {})}
    return Example("hongwu", "check", payload, {"legal": legal, "forced": forced}, source)


FAILED_THROW = [
    _throw(f"{V11} default | ♦A ♦Q ♦Q ♣9 | ♦A ♦Q ♦Q → false, forced ♦Q ♦Q", None, "♦A ♦Q ♦Q ♣9", "♦A ♦Q ♦Q", OTHERS,
           False, "♦Q ♦Q"),
    _throw(f"{V11} single_first | same → false, forced ♦A", SINGLE_FIRST, "♦A ♦Q ♦Q ♣9", "♦A ♦Q ♦Q", OTHERS, False,
           "♦A"),
    _throw(f"{V11} single_first | ♦A ♦A ♦9 ♦8 ♣9 | ♦A ♦A ♦9 ♦8 → false, forced ♦8", SINGLE_FIRST, "♦A ♦A ♦9 ♦8 ♣9",
           "♦A ♦A ♦9 ♦8", OTHERS, False, "♦8"),
    _throw(f"{V11} default | ♦A ♦A ♦9 ♦8 ♣9 | ♦A ♦A ♦9 ♦8 → false, forced ♦8", None, "♦A ♦A ♦9 ♦8 ♣9",
           "♦A ♦A ♦9 ♦8", OTHERS, False, "♦8"),
    _throw(f"{V11} single_first | ♦A ♦A ♦Q ♦Q ♣9 | ♦A ♦A ♦Q ♦Q → false, forced ♦Q ♦Q", SINGLE_FIRST,
           "♦A ♦A ♦Q ♦Q ♣9", "♦A ♦A ♦Q ♦Q", OTHERS, False, "♦Q ♦Q"),
    _throw(f"{V11} single_first | ♦A ♦A ♦K ♣9 | ♦A ♦A ♦K | ♣4, ♣5, ♣6 → true, forced null", SINGLE_FIRST,
           "♦A ♦A ♦K ♣9", "♦A ♦A ♦K", ["♣4", "♣5", "♣6"], True, None),
    Example("hongwu", "check", {"trump": "♠", "lead": None, "hand": "♦A ♦K ♣9", "play": "♦A ♦K"},
            {"legal": None, "forced": None}, f"{V11} undecided (others absent): ♦A ♦K from ♦A ♦K ♣9 → legal null"),
]

BONUS = {"bottom_bonus": "on"}


def _bottom(source, bid, points, bottom, last, deltas, rules=BONUS, **extra):
    return _eq_settle(source, bid, points, deltas if isinstance(deltas, dict) else {"deltas": deltas}, rules,
                      bottom_points=bottom, last_trick=last, **extra)


BOTTOM_BONUS = [
    _bottom(f"{V12} 80 | 50 | 20 | pair | 90 → [−1, 1, −1, 1]", 80, 50, 20, "pair",
            {"deltas": [-1, 1, -1, 1], "defender_total": 90}),
    _bottom(f"{V12} 80 | 50 | 20 | single | 70 → [1, −1, 1, −1]", 80, 50, 20, "single",
            {"deltas": [1, -1, 1, -1], "defender_total": 70}),
    _bottom(f"{V12} 80 | 50 | 20 | none | 50 → [1, −1, 1, −1]", 80, 50, 20, "none",
            {"deltas": [1, -1, 1, -1], "defender_total": 50}),
    _bottom(f"{V12} 60 | 0 | 10 | single | 10 → [4, −4, 4, −4]", 60, 0, 10, "single",
            {"deltas": [4, -4, 4, -4], "defender_total": 10}),
    _bottom(f"{V12} 40 | 60 | 30 | tractor | 120 → [−20, 20, −20, 20]", 40, 60, 30, "tractor",
            {"deltas": [-20, 20, -20, 20], "defender_total": 120}),
    _bottom(f"{V12} 65 | 30 | 5 | throw | 35 → [2, −2, 2, −2]", 65, 30, 5, "throw",
            {"deltas": [2, -2, 2, -2], "defender_total": 35}),
    _bottom(f"{V12} 80 | 50, surrender | 20 | pair | 50 → [−1, 1, −1, 1]", 80, 50, 20, "pair",
            {"deltas": [-1, 1, -1, 1], "defender_total": 50}, surrender=True),
    _bottom(f"{V12} 40 | 0, surrender | 20 | pair | 0 → [−4, 4, −4, 4]", 40, 0, 20, "pair",
            {"deltas": [-4, 4, -4, 4], "defender_total": 0}, surrender=True),
    _bottom(f"{V12} with bottom_bonus off: 80, 50, bottom 20, pair → [1, −1, 1, −1]", 80, 50, 20, "pair",
            [1, -1, 1, -1], {"bottom_bonus": "off"}),
    _bottom(f"{V12} rejected: 190 + 20 > 200 (field bottom_points)", 80, 190, 20, "single",
            refused("bottom_points", status=422)),
    _bottom(f"{V12} rejected: bottom_points 85", 80, 50, 85, "single", refused("bottom_points", status=422)),
    _bottom(f"{V12} rejected: bottom_points 12", 80, 50, 12, "single", refused("bottom_points", status=422)),
    _bottom(f"{V12} rejected: last_trick triple (field last_trick)", 80, 50, 20, "triple",
            refused("last_trick", status=422)),
]

VARIANTS = (PAODEKUAI45 + BOMB_POINTS + ZHANIAO + BAOPEI + BAOBEN + BAODAN_MAX + SPADE3_FIRST + FULL_KICKERS
            + WILD_OVER_EIGHT + CONTRIBUTION_DOUBLING + FAILED_THROW + BOTTOM_BONUS)

# ---------------------------------------------------------------------------------------------------------------
# Binding examples that are not one request, and where they are tested
# ---------------------------------------------------------------------------------------------------------------

NOT_ONE_REQUEST = [
    (("common.md §Cards, §Notation: the input forms (♠A ♥10, SA h10 dT, 黑桃A, BJ/LJ, SJ = the spade jack), the "
     "canonical output, parse(format(x)) == x, too many copies or an empty card string refused"),
     ("rules over every input rather than one example: tests/engine/test_cards.py, tests/web/test_trick_core.py "
     "(test_all_cards_of_a_request_are_checked_together_against_the_decks, test_cards_in_trick_games_need_suits)")),
    (("common.md §Smallest legal play: 'leading with a 3, 托管 plays the single 3, not 33'; a play written "
     "'10 10 10 3 J, not J 10 10 10 3'"),
     ("the order's wording, no hand given: tests/web/test_smallest_play.py, "
     "tests/engine/test_smallest_play_properties.py")),
    ("README.md, variants.md: 'Every settlement is zero-sum'",
     ("a property of every settlement: test_q783_settle.py::test_every_settlement_is_zero_sum_and_banks_follow_the_"
     "deltas, test_trick_core.py::test_hongwu_settlement_is_zero_sum, the hypothesis tests of test_paodekuai*.py, "
     "test_shuangkou.py, test_erqiwang_variants.py")),
    (("q783.md §Cards, §Play and payouts: the first hand's score cards become the banks, later hands start from "
     "them, a bank at 0 ends the 大局"), ("a sequence of hands on a table's ledger: tests/web/test_q783_tracker_"
     "ledger.py, tests/web/test_q783_empty_bank.py")),
    (("hongwu.md, erqiwang.md §Deal and bidding: ranges and steps, a pass is final, 200 (二七王: 5) wins at once, "
     "nobody bids → the first player at 60"), ("whole biddings in prose: tests/web/test_trick_core.py "
     "(test_hongwu_bid_must_rise_5_to_15 … test_erqiwang_bid_of_5_wins_at_once)")),
    (("erqiwang.md §Points and settlement: prose figures ('bid 60, 闲家 100 → 4; 140 → 6'; 小光 lines 60 → 30, "
     "55 → 30, 45 → 25, 40 → 20)"), ("the settlement table above holds the first two; the lines: "
     "test_erqiwang_api.py::test_xiaoguang_line_is_half_the_bid_rounded_up_to_five")),
    ("variants.md: 'GET /api/v1/games publishes every new option with its default'",
     ("the games listing: tests/web/test_openapi.py, test_hongwu_api.py::test_hongwu_game_lists_its_options_and_"
     "presets")),
    ("variants.md conventions: an unused field says so in a steps line ('扎鸟 off: heart10 not used')",
     ("the steps' words: test_paodekuai_variants.py::test_zhaniao_off_heart10_is_not_used_and_the_steps_say_so, "
     "test_baopei_off_let_go_is_not_used, test_erqiwang_variants.py (抠底 off)")),
    ("README.md: each (reading) is said on the game's rules page", ("the pages' text: tests/web/test_rules_pages.py, "
     "tests/web/test_rules_page_reading_examples.py")),
]

EXAMPLES: list[Example] = COMMON + PAODEKUAI + SHUANGKOU + Q783 + HONGWU + ERQIWANG + VARIANTS

__all__ = ["EXAMPLES", "NOT_ONE_REQUEST", "Example", "refused"]
