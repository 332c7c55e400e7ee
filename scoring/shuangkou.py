"""双扣 (``rules/shuangkou.md``) on the shedding core.

Four players, partners opposite, two packs (108 cards), 27 each. Suits never
matter: bare ranks are accepted and plays are told apart by their ranks only.
Rank order 3 < … < A < 2 < 小王 < 大王.

Jokers are wild (house rule ``wild``: both / only 大王 / none) when played with
at least one natural card; alone they are themselves (single, pair of
identical jokers, 三王, 天王). :meth:`ShuangkouSpec.readings` gives every
distinct reading of a card set, largest first; a play beats the table when
any of its readings does.

Readings made here where the spec is silent:

* the table's play is read as its largest reading (``previous_reading``
  picks another);
* a joker stands for a card of the two packs: no rank has more than 8
  (X of a kind and every chain group are at most 8);
* chains with a 2 (``chain_with_two``) are ordered among themselves by their
  last rank around the wrap (KA2 < A23 < 234), all below the normal chains;
* with ``uneven_chain`` every group has 4–8 cards, and every possible
  smallest group X is a reading (the largest first);
* bombs in ``settle`` given as cards are read as their largest bomb reading;
  all the bombs of a hand together must fit in the two packs.
"""
from __future__ import annotations

from .answers import MULTIPLIER, answer, field
from .cards import format_cards
from .errors import InputErrors, InvalidInput, MalformedInput, PaijuError
from .games import Game, opposite_teams, settlement
from .results import Settlement
from .i18n import Text, join, seat_name, signed, t
from .inputs import CardsField, IntField, RowsField, Schema, SeatField, SeatOrderField
from .rules import Choice, Option, Preset, RuleSet, switch
from .shedding import Reading, shedding_actions
from .shuangkou_patterns import (DECK, MAX_COPIES, MIN_LINES, ORDER, SameLines, ShuangkouSpec, Wild, deck_for,  # noqa: F401  (the game's names)
                             lines_of, max_lines, most_of_a_kind, sort_key_for, spec_for)

# ==========================================================================
# House rules (``wild`` and ``same_lines``, which the spec reads: ``scoring/shuangkou_patterns.py``)
# ==========================================================================

class Contribution(Choice):
    SEED = "seed"          # +6 / +18 / +30
    ONE_THREE_FIVE = "1-3-5"
    DOUBLING = "doubling"  # 2^(lines−4) from each other player


class Pingkou(Choice):
    TABLE = "table"  # +1 −1 −1 +1
    DRAW = "draw"


RULESET = RuleSet(
    options=(
        Option("wild", Wild.BOTH, tuple(Wild), t("百搭（王当任意牌）", "Wild jokers"),
               t("「大小王都百搭」：四个王都可当任意牌；「只有大王百搭」（百变）：只有大王可以；「王不百搭」：王不当别的牌。王单独出时就是王本身。",
                 "“both jokers”: all four jokers stand for any card; “only the big joker” (百变): only 大王; “no wild jokers”: jokers are never wild. "
                 "Played alone, jokers are themselves."),
               value_labels={Wild.BOTH: t("大小王都百搭", "both jokers"), Wild.BIG: t("只有大王百搭", "only the big joker"),
                             Wild.NONE: t("王不百搭", "no wild jokers")}),
        Option("same_lines", SameLines.FEWER_CARDS, tuple(SameLines), t("线数相同的炸弹", "Bombs of equal lines"),
               t("「张数少的大」：线数相同时张数少的大，再比点数（原文正文）；「先出的大」：线数相同谁先出谁大，只有线数更多才能管",
                 "“fewer cards win”: with equal lines the bomb with fewer cards wins, then the higher rank (the source’s main "
                 "text); “the first played wins”: equal lines never beat, only more lines do"),
               value_labels={SameLines.FEWER_CARDS: t("张数少的大", "fewer cards win"),
                             SameLines.FIRST_PLAYED: t("先出的大", "the first played wins")}),
        switch("chain_with_two", t("连环炸弹可以带2", "Chain bombs may hold 2"),
               t("2 可以进连环炸弹并可绕圈（A23…）；带2的连环是同线数、同张数中最小的",
                 "2 may appear in chain bombs, wrapping (A23…); such a chain is the lowest of its lines and size")),
        switch("uneven_chain", t("连环各组张数可不同（千变）", "Uneven chain groups (千变)"),
               t("连环炸弹各组张数可以不同，以最少的一组为线数 X", "a chain's groups may differ in size; X is the smallest group")),
        Option("cap_lines", 8, tuple(range(8, 13)), t("翻倍封顶线数", "Doubling cap (lines)"),
               t("赢方最大的炸弹 5线×2、6线×4、7线×8，每多一线再翻倍，到这个线数为止（原文到8线×16）",
                 "the winners' largest bomb: 5 lines ×2, 6 ×4, 7 ×8, doubling for every further line up to this "
                 "cap (the source stops at 8 lines ×16)")),
        Option("contribution", Contribution.SEED, tuple(Contribution), t("贡献分", "Bomb contribution"),
               t("6线及以上的炸弹当即从其他每人收分：6线 +6/每人−2，7线 +18/−6，8线及以上 +30/−10（中国手机游戏新闻网）；"
                 "或 +3/−1、+9/−3、+15/−5（779游戏大厅千变双扣页的正文）；或每多一线翻倍，其他每人付 2^(线数−4)："
                 "6线4、7线8 … 12线256，不受封顶限制（温州双扣的贡献分表）",
                 "every bomb of 6 lines or more pays at once: 6 lines +6 / −2 from each other player, 7 lines +18/−6, "
                 "8 or more +30/−10 (中国手机游戏新闻网); or +3/−1, +9/−3, +15/−5 (the text of the 779 game hall's "
                 "千变双扣 page); or doubling with every line, each other player paying 2^(lines−4): 6 lines 4, "
                 "7 lines 8 … 12 lines 256, never capped (the contribution table of Wenzhou 双扣)"),
               value_labels={Contribution.SEED: t("6线+6、7线+18、8线+30（中国手机游戏新闻网）",
                                       "6 lines +6, 7 lines +18, 8+ lines +30 (中国手机游戏新闻网)"),
                             Contribution.ONE_THREE_FIVE: t("6线+3、7线+9、8线+15（779游戏大厅）", "6 lines +3, 7 lines +9, 8+ lines +15 (779 game hall)"),
                             Contribution.DOUBLING: t("每多一线翻倍（温州）", "doubling with every line (Wenzhou)")}),
        Option("pingkou", Pingkou.TABLE, tuple(Pingkou), t("平扣", "Pingkou (1st and 4th partners)"),
               t("「按表计分」：+1 −1 −1 +1；「算平局」：打和，贡献分之前都是0。平扣时先出完的一方仍按赢方算翻倍（解读）",
                 "“scored by the table”: +1 −1 −1 +1; “a draw”: a draw, all 0 before contributions. In 平扣 the team of the first "
                 "player out still counts as the winners for the multiplier (reading)"),
               reading=True,
               value_labels={Pingkou.TABLE: t("按表计分", "scored by the table"), Pingkou.DRAW: t("算平局", "a draw")}),
        Option("min_triple_run", 3, (3, 2), t("连三张最少几连", "Shortest triple run"),
               t("原文“三个或三个以上”；可改为2（555666）", "the source says three or more triples; 2 allows 555666")),
        switch("wild_over_eight", t("王补成九相以上", "Wild jokers past eight of a kind"),
               t("百搭王和1到8张同点数的牌一起出，补成九相、十相……最多十二相（8张加4个王，只有大王百搭时最多十相）；"
                 "线数 = 张数，炸弹线数可填到12（779游戏大厅千变双扣页：“44444444大王——九相4”“十二相：八张同点数的牌加四张王”；"
                 "温州双扣服务端也算到12线）",
                 "wild jokers played with 1 to 8 cards of one rank make nine, ten … up to twelve of a kind (8 cards and "
                 "4 jokers; ten when only 大王 is wild); lines = cards, and a bomb's lines may be entered up to 12 "
                 "(the 779 game hall's 千变双扣 page: “44444444大王 — nine of a kind”, “twelve: eight of a rank and "
                 "four jokers”; a Wenzhou 双扣 server counts up to 12 lines too)")),
    ),
    presets=(
        Preset("seed", t("中国手机游戏新闻网《双扣比赛》", "中国手机游戏新闻网 (双扣比赛 page)"),
               help=t("这篇规则的正文：四个王都百搭，连环炸弹不带2", "that page’s main text: all four jokers wild, no 2 in chains")),
        Preset("baibian", t("百变", "Baibian"), {"wild": Wild.BIG, "chain_with_two": True},
               help=t("只有大王百搭；连环炸弹可以带2", "only 大王 is wild; chains may hold 2")),
        Preset("qianbian", t("千变", "Qianbian"), {"wild": Wild.BOTH, "uneven_chain": True},
               help=t("四个王百搭；连环各组张数可不同", "all four jokers wild; chain groups may differ in size")),
    ),
)


# ==========================================================================
# Settlement
# ==========================================================================

OUTCOMES = {1: ("shuangkou", 3, t("双扣", "double (双扣)")),
            2: ("dankou", 2, t("单扣", "single (单扣)")),
            3: ("pingkou", 1, t("平扣", "level (平扣)"))}
#: what each other player pays for a bomb of 6, 7, 8 or more lines (the bomb's seat gets three times that)
CONTRIBUTION = {"seed": {6: 2, 7: 6, 8: 10}, "1-3-5": {6: 1, 7: 3, 8: 5}}
MIN_CONTRIBUTION_LINES = 6


def contribution_each(lines: int, rules) -> int:
    """What each other player pays to a bomb of ``lines`` (6 or more): by the table, or 2^(lines−4) (doubling)."""
    if rules.contribution is Contribution.DOUBLING:
        return 2 ** (lines - 4)  # never capped by cap_lines
    return CONTRIBUTION[rules.contribution][min(lines, 8)]


def multiplier_for(lines: int, cap: int) -> int:
    if lines < 5:
        return 1
    return 2 ** (min(lines, cap) - 4)


SETTLE_INPUT = Schema((
    SeatOrderField("finish_order", t("出完的顺序", "the finishing order"), min_len=2, entry="tap_order",
                   place_label=t("第{n}个出完的", "place {n}")),
    RowsField("bombs", t("炸弹", "bombs"), row_label=t("炸弹{n}", "bomb {n}"), max_rows=27, entry="bomb_chips",
              fields=(SeatField("seat", t("座位", "seat")),
                      CardsField("cards", t("牌", "cards"), required=False),
                      IntField("lines", t("线数", "lines"), required=False, lo=MIN_LINES,
                               hi=lambda ctx: max_lines(ctx.rules), entry="chips")),
              needs_one_of=("cards", "lines")),
))


def _bomb_lines(row, rules, path: str, label: Text) -> tuple[int, Reading | None]:
    """A bomb row's lines (from its cards when given) and the cards' bomb reading; raises on a bad row."""
    if row.cards is None:
        if row.lines is None:
            raise MalformedInput(t("「{f}」要写牌或线数", "“{f}” needs its cards or its lines", f=label), field=path,
                                 code="missing_field")
        return row.lines, None
    bombs = [r for r in spec_for(rules).readings(row.cards) if r.is_bomb]
    shown = format_cards(row.cards, sort_key_for(rules))
    if not bombs:
        raise InvalidInput(t("「{c}」不是炸弹：{why}", "“{c}” is not a bomb: {why}", c=shown,
                             why=_not_bomb_reason(row.cards, rules)), field=f"{path}.cards", code="not_a_bomb")
    lines = bombs[0].extra["lines"]
    if row.lines is not None and row.lines != lines:
        raise InvalidInput(t("{f}：牌「{c}」是{k}线炸弹，填的线数却是{l}；请改成一致（或只填一项）",
                             "{f}: the cards “{c}” make a {k}-line bomb but the lines say {l}; make them agree "
                             "(or give only one)", f=label, c=shown, k=lines, l=row.lines),
                           field=f"{path}.lines", code="cards_lines_disagree")
    return lines, bombs[0]


def _bombs(values, rules) -> list[tuple[int, int, Reading | None]]:
    """(seat, lines, the bomb's reading when given as cards) for every bomb; every problem at once."""
    out, problems = [], []
    for i, row in enumerate(values.bombs):
        path, label = f"bombs[{i}]", t("炸弹{n}", "bomb {n}", n=i + 1)
        try:
            lines, reading = _bomb_lines(row, rules, path, label)
        except PaijuError as exc:
            problems.append(exc)
            continue
        out.append((row.seat, lines, reading))
    every = [c for row in values.bombs if row.cards for c in row.cards]
    if every and not problems:
        try:
            DECK.check(every, field="bombs")
        except PaijuError as exc:
            problems.append(exc)
    if problems:
        raise InputErrors(problems)
    return out


def _not_bomb_reason(cards, rules) -> Text:
    rs = spec_for(rules).readings(cards)
    if rs:
        return t("它是 {r}", "it reads as {r}", r=rs[0].label)
    return spec_for(rules).no_pattern(cards)


def settle(values, rules) -> Settlement:
    order = values.finish_order
    bombs = _bombs(values, rules)
    first = order[0]
    partner = (first + 2) % 4
    if partner in order:
        place = order.index(partner)
    elif len(order) == 3:
        place = 3
    else:
        raise InvalidInput(t("出完顺序 {o} 还定不了结果：{p}（{f}的对家）是第三还是第四个出完？请再写一个座位",
                             "the finishing order {o} does not decide the outcome yet: is {p} (partner of {f}) third "
                             "or fourth out? Give one more seat",
                             o=join([seat_name(s) for s in order], " → ", " → "), p=seat_name(partner),
                             f=seat_name(first)),
                           field="finish_order", code="undecided")
    outcome, base, name = OUTCOMES[place]
    winners = {first, partner}
    if outcome == "pingkou" and rules.pingkou is Pingkou.DRAW:
        base = 0
    deltas = [base if s in winners else -base for s in range(4)]
    steps = [t("{f}、{p}一方赢，{o}：{w}各 +{b}，另两家各 −{b}",
               "{f} and {p} win, {o}: each winner +{b}, each loser −{b}",
               f=seat_name(first), p=seat_name(partner), o=name, w=join([seat_name(s) for s in sorted(winners)], "、", " and "),
               b=base)]
    steps.extend(_over_eight_steps(bombs))
    mult, why = _multiplier(bombs, winners, rules)
    steps.append(why)
    deltas = [d * mult for d in deltas]
    steps.append(t("底分 × 倍数：{d}", "base × multiplier: {d}", d=_fmt(deltas)))
    steps.extend(_pay_contributions(deltas, bombs, rules))
    steps.append(t("合计：{d}", "total: {d}", d=_fmt(deltas)))
    return settlement(deltas, steps, outcome=outcome, outcome_name=name, multiplier=mult)


def _multiplier(bombs, winners, rules) -> tuple[int, Text]:
    """The winners' largest bomb sets the multiplier (up to ``cap_lines``), and the step that says so."""
    winning = [(s, lines) for s, lines, _reading in bombs if s in winners]
    if not winning:
        return 1, t("赢方没有炸弹 → ×1", "the winners played no bomb → ×1")
    seat, lines = max(winning, key=lambda b: b[1])
    mult = multiplier_for(lines, rules.cap_lines)
    capped = t("（封顶{c}线）", " (capped at {c} lines)", c=rules.cap_lines) if lines > rules.cap_lines else t("", "")
    return mult, t("翻倍：赢方最大的炸弹是{s}的{l}线 → ×{m}{c}", "multiplier: the winners' largest bomb is {s}’s "
                   "{l} lines → ×{m}{c}", s=seat_name(seat), l=lines, m=mult, c=capped)


def _pay_contributions(deltas: list[int], bombs, rules) -> list[Text]:
    """Every bomb of 6 lines or more: each other player pays its contribution to the bomb's seat."""
    steps = []
    doubling = rules.contribution is Contribution.DOUBLING
    for seat, lines, _reading in bombs:
        if lines < MIN_CONTRIBUTION_LINES:
            continue
        loss = contribution_each(lines, rules)
        for s in range(4):
            deltas[s] += 3 * loss if s == seat else -loss
        if doubling:
            steps.append(t("贡献分（每多一线翻倍）：{s}的{l}线炸弹，其他每人付 2^({l}−4) = {x} → +{g}",
                           "contribution (doubling with every line): {s}’s {l}-line bomb, each other player pays "
                           "2^({l}−4) = {x} → +{g}", s=seat_name(seat), l=lines, g=3 * loss, x=loss))
        else:
            steps.append(t("贡献分：{s}的{l}线炸弹 +{g}，其他每人 −{x}", "contribution: {s}’s {l}-line bomb +{g}, "
                           "each other player −{x}", s=seat_name(seat), l=lines, g=3 * loss, x=loss))
    return steps


def _over_eight_steps(bombs) -> list[Text]:
    """What ``wild_over_eight`` did: the bombs of more than eight of a kind it made."""
    return [t("王补成九相以上：{s}的{b}", "wild jokers past eight: {s}’s {b}", s=seat_name(seat), b=reading.label)
            for seat, lines, reading in bombs
            if reading is not None and reading.kind == "bomb" and lines > MAX_COPIES]


def _fmt(deltas) -> Text:
    """Each player's points in words: 1号位 +12，2号位 −12 … (a table's page names them)."""
    return join([t("{s} {d}", "{s} {d}", s=seat_name(seat), d=signed(d))
                 for seat, d in enumerate(deltas)])


def pattern_texts(rules) -> list[Text]:
    """The patterns and bombs, for the rules page."""
    return spec_for(rules).pattern_texts()


ACTIONS = shedding_actions(spec_for)


#: worked examples for the rules page and the API document; each is a binding example of the rules
EXAMPLES = (
    ("settle", t("双扣：1号位6线炸，2号位天王（7线）", "双扣: seat 1 played a 6-line bomb, seat 2 天王 (7 lines)"),
     {"finish_order": [0, 2], "bombs": [{"seat": 0, "lines": 6}, {"seat": 1, "cards": "大王 大王 小王 小王"}]}),
    ("settle", t("单扣：赢家一队的5线炸翻倍", "单扣: the winners' 5-line bomb doubles"),
     {"finish_order": [1, 0, 3, 2], "bombs": [{"seat": 3, "lines": 5}, {"seat": 0, "lines": 4}]}),
    ("settle", t("双扣：输家一队的8线炸只收贡献分", "双扣: a losing team's 8-line bomb earns only its contribution"),
     {"finish_order": [1, 3], "bombs": [{"seat": 2, "lines": 8}]}),
    ("check", t("7线（天王）管6线", "7 lines (天王) beat 6 lines"),
     {"previous": "♠2 ♥2 ♣2 ♦2 ♠2 ♥2", "play": "大王 大王 小王 小王"}),
    ("check", t("同线数：张数少的大", "equal lines: fewer cards win"),
     {"previous": "5 5 5 5 6 6 6 6 7 7 7 7", "play": "9 9 9 9 9 9 9"}),
    ("check", t("百搭王：7 7 8 9 9 大王 读作 778899", "wild joker: 7 7 8 9 9 大王 reads as 778899"),
     {"previous": "4 4 5 5 6 6", "play": "7 7 8 9 9 大王"}),
)
#: the settle answer beyond its deltas and steps: the outcome (its words in outcome_name) and the multiplier
SETTLE_ANSWER = answer(field("outcome", "choice", values=("shuangkou", "dankou", "pingkou")),
                       field("outcome_name", "text", line=t("结果：{v}", "Result: {v}")),
                       field("multiplier", "integer", line=MULTIPLIER))
#: what its patterns add to a reading: the top rank (none for jokers alone), the ranks read (``as``), what the
#: wild jokers stand for, a bomb's lines and a chain bomb's x by y
READING_FIELDS = answer(field("top", "text", nullable=True, required=False), field("as", "text", required=False),
                        field("wild_as", "texts", required=False), field("lines", "integer", required=False),
                        field("chain", "object", required=False,
                              parts=answer(field("x", "integer"), field("y", "integer"))))


class Shuangkou(Game):
    slug = "shuangkou"
    examples = EXAMPLES
    settle_answer, reading_fields = SETTLE_ANSWER, READING_FIELDS
    name = t("双扣", "Shuangkou")
    kind = "shedding"
    summary = t("对家搭档，先出完的一方赢；炸弹翻倍和贡献分", "partners opposite; the first team out wins; bombs double "
                "the score and pay contributions")
    ruleset = RULESET
    settle_input = SETTLE_INPUT
    bare_ranks = True
    deck_of = staticmethod(deck_for)
    action_table = ACTIONS
    settle_of = staticmethod(settle)

    def sides(self, data, rules, seats):
        return opposite_teams(seats) if seats == 4 else None  # partners opposite, always


GAME = Shuangkou()
