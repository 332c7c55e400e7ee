"""The shared shedding-game core: 跑得快 / 争上游, 双扣 and Q783.

A shedding game (beat the table or pass; first out wins) plugs in with a spec
class bound to one resolved rules, and gets the generic ``classify``,
``check`` and ``hint`` actions of ``api.md``::

    class Q783Spec(SheddingSpec):
        slug = "q783"
        bare = True                          # bare ranks ("7 7 8", suit unknown) accepted
        pattern_types = (NOfAKind, Bomb, Q783)   # each reads, generates and compares itself

        def deck(self) -> Deck: ...

    spec_for = spec_cache(Q783Spec)          # one spec per distinct rules
    actions = {**shedding_actions(spec_for), "settle": settle}

Modules: :mod:`.reading` (:class:`Reading`), :mod:`.order` (:class:`RankOrder`),
:mod:`.counts` (a hand as rank counts, attachments), :mod:`.pattern`
(:class:`Pattern`, :class:`HandGroups`), :mod:`.spec` (:class:`SheddingSpec`,
:func:`spec_cache`), :mod:`.search` (legal plays as a
:class:`~scoring.plays.LegalPlays`, the brute-force oracle) and :mod:`.actions`.
The stock patterns a game declares with its parameters: :mod:`.stock` (one
rank, kickers), :mod:`.runs` (runs by width, airplanes), :mod:`.bombs`; wild
jokers: :mod:`.wild`.
"""
from ..plays import FOLLOW_LIMIT as MAX_PLAYS, LEAD_LIMIT as MAX_LEADS, MAX_LIMIT, LegalPlays  # noqa: F401
from . import bombs, runs, stock, wild  # noqa: F401
from .actions import (PASS_WORDS, check_together, is_pass, read_cards, shedding_actions,  # noqa: F401
                      table_reading, why_not)
from .order import STANDARD, RankOrder  # noqa: F401
from .pattern import HandGroups, Pattern, by_rank, labelled, multisets  # noqa: F401
from .reading import Probe, Reading, distinct_readings, probe  # noqa: F401
from .search import (Play, brute_force_multisets, brute_force_plays, judge, legal_plays, legal_readings, preference,  # noqa: F401
                     resolve_reading)
from .spec import SheddingSpec, spec_cache  # noqa: F401
