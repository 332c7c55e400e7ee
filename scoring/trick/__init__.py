"""The trick-taking core shared by 红五 and 二七王 (the common rules, "Shared trick-taking obligations").

Modelled on the ``mechanics`` crate of rbtying/shengji: every card is read
through a *trump context* that the game builds for one trump suit. The modules,
each building on the ones before it:

* :mod:`.order` — :class:`Level`, :class:`TrickSpec`, the policies
  :class:`ThrowRule`, :class:`ThrowCompare` and :class:`FailedThrow`, the trump context
  :class:`Context` (each card's group, level, tractor adjacency), card points,
  :class:`GameOrder` and :func:`order_rows` for the rules page;
* :mod:`.units` — singles, pairs, triples, tractors; a lead's units;
* :mod:`.follow` — following obligations: :func:`check_follow` and its reasons;
* :mod:`.throws` — leads and throws against the other hands: :func:`check_lead`;
* :mod:`.winner` — the trick winner;
* :mod:`.hints` — the legal plays (a :class:`~scoring.plays.LegalPlays`) and 托管;
* :mod:`.bidding` — the bidding turn loop both games share;
* :mod:`.inputs` and :mod:`.actions` — reading a request, and the API actions.

A game module (``hongwu``, ``erqiwang``) describes its order as lists of
:class:`Level` and gets the API actions from :func:`trick_actions`.
"""
from .actions import TRICK_INPUTS, classify_cards, trick_actions
from .bidding import Bidding, BidRules, bidding_action, read_bid, run_bidding
from .follow import check_follow
from .hints import legal_plays, smallest
from .inputs import TrickCardsField, TrumpField, check_deck, parse_trump
from .order import (THROW_COMPARE, TRUMP, CardOrder, Context, FailedThrow, GameOrder, Level, ThrowCompare,
                    ThrowRule, TrickSpec, card_points, order_rows, points_of)
from .throws import check_lead
from .units import Unit, decompose, lead_units, match, shape_text
from .winner import winner

__all__ = [
    "THROW_COMPARE", "TRICK_INPUTS", "TRUMP", "TrickCardsField", "TrumpField", "Bidding", "BidRules", "CardOrder", "Context", "FailedThrow", "GameOrder", "Level",
    "ThrowCompare", "ThrowRule", "TrickSpec", "Unit", "bidding_action", "card_points", "check_deck", "check_follow", "check_lead",
    "classify_cards", "decompose", "lead_units", "legal_plays", "match", "order_rows", "parse_trump",
    "points_of", "read_bid", "run_bidding", "shape_text", "smallest",
    "trick_actions", "winner",
]
