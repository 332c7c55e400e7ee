"""跑得快 / 争上游 (``rules/paodekuai.md``) on the shedding core.

Three presets of one game: ``paodekuai52`` (default, 4 × 13, no jokers),
``paodekuai48`` (3 × 16, ♥2 ♣2 ♦2 ♠A removed) and ``zhengshangyou108``
(2 decks with jokers, 4 × 27). Ranks low → high: 3 … K A 2 (小王 大王).

Readings made here where the spec is silent (also shown on the rules page):

* an attachment (3带1, 3带2, 4带2, wings, kickers) is never of the rank it is
  attached to (333+3 is a bomb, not 3带1); 三带二's two cards may be any two
  other cards in 跑得快 (争上游's own readings: ``scoring/zhengshangyou.py``);
* ``bomb_kickers`` concerns 争上游 only (跑得快 has 4带2, which is no bomb).

House rules of other tables (``rules/variants.md`` 1–8), where that text leaves room:

* an option that cannot apply to a preset (``zhaniao``, ``full_kickers`` with two packs) is refused only
  when set away from its default; ``baoben: false`` under ``penalty: seed`` changes nothing and a step
  says so;
* a settle lists at most ``dealt`` bombs (one player's deal; the form grows row by row); a bomb row's cards need not be
  told apart from the other rows' (the calculator only counts entries);
* 飞机带少牌 (``full_kickers``, last play only): two or more consecutive triples (3 … A, no upper bound,
  as a bare 3顺) with 1 … 2t − 1 wing cards of other ranks, no joker; it answers a full airplane of as
  many triples;
* ``baodan_max`` and ``spade3_first`` apply to 争上游 too (the sources name no preset).
"""
from __future__ import annotations

from typing import Sequence

from .answers import answer, field
from .cards import format_cards
from .errors import InputErrors, InvalidInput
from .games import Game, settlement
from .results import Settlement
from .i18n import Text, seat_name, t
from .inputs import CardsField, IntField, PerSeatField, RowsField, Schema, SeatField
from .paodekuai_patterns import (KIND_NAMES, ORDER, PDK45, PDK48, PDK52, PRESETS, ZSY, Deal,  # noqa: F401  (the game's names)
                             PaodekuaiSpec, deck_for)
from .rules import Choice, Option, Preset, RuleSet, switch
from .shedding import shedding_actions, spec_cache
from .zhengshangyou import ZhengshangyouSpec

# ==========================================================================
# House rules and presets (the packs of the presets: ``scoring/paodekuai_patterns.py``)
# ==========================================================================

class Penalty(Choice):
    SEED = "seed"          # cards left × multiplier
    PER_CARD = "per_card"  # 1 per card, last card free, shut out double


class Zhaniao(Choice):
    OFF = "off"
    CARDS = "cards"  # the ♥10 holder's card payments doubled
    ALL = "all"      # bomb payments too


ONE_DECK = (PDK52, PDK48, PDK45)


RULESET = RuleSet(
    options=(
        Option("penalty", Penalty.SEED, tuple(Penalty),
               t("输家付分", "What losers pay"),
               t("「剩牌数 × 倍数」（一张没出 ×4；出了不到四分之一 ×3；不到一半 ×2；其余 ×1）。"
                 "“发牌数”理解为每人发到的张数，只出1张也算“不到四分之一”（解读）。"
                 "「每张1分，报单不付，全关加倍」：每张剩牌1分，只剩1张（报单）不付，一张没出（全关）加倍。",
                 "“cards left × multiplier” (nothing played ×4; under a quarter of the deal played ×3; "
                 "under half ×2; otherwise ×1). “Total cards” is read as the cards dealt to each player, and "
                 "playing exactly 1 card counts as under a quarter (reading). “1 per card, last card free, shut out double”: 1 per card left, a "
                 "loser left with 1 card pays nothing, one who played nothing pays double."),
               reading=True,
               value_labels={Penalty.SEED: t("剩牌数 × 倍数", "cards left × multiplier"),
                             Penalty.PER_CARD: t("每张1分，报单不付，全关加倍", "1 per card, last card free, shut out double")}),
        Option("stake", 1, tuple(range(1, 101)), t("底分", "Stake"),
               t("每张剩牌乘以底分（1–100）", "every card left is multiplied by the stake (1–100)")),
        switch("must_beat", t("有出必出（能管必管）", "Must beat if able"),
               t("能管上桌上的牌时不许不出", "a player who can beat the table may not pass")),
        switch("aaa_top", t("AAA 是最大的炸弹", "AAA is the highest bomb"),
               t("跑得快中三个A是炸弹；默认按张数比是最小的炸弹（原文字面），开启后是最大的炸弹。"
                 "只用于有三个A炸弹的预设（15张玩法只有一个A，争上游的三个A只是三张）",
                 "in 跑得快 three aces are a bomb; by default the lowest bomb (fewest cards, as the source says), "
                 "with this rule the highest. Only for the presets with an AAA bomb (the 15-card game has one "
                 "ace; in 争上游 three aces are only a triple)"),
               only_presets=(PDK52, PDK48)),
        switch("bomb_kickers", t("炸弹可带牌（争上游）", "Bombs may carry kickers (争上游)"),
               t("争上游：炸弹可以带两张单牌或两对；压炸弹时所带张数必须相同。只用于争上游"
                 "（跑得快里四张带两张读作四带二）",
                 "争上游: a bomb may carry two singles or two pairs; a bomb with kickers is beaten only by a "
                 "bomb carrying as many kicker cards. 争上游 only (in 跑得快 four with two reads as 四带二)"),
               only_presets=(ZSY,)),
        Option("bomb_points", 0, tuple(range(0, 101)), t("炸弹分", "Bomb points"),
               t("每个记下的炸弹当场收分：其他每人付 炸弹分 × 底分（0–100，0 = 炸弹不计分；常见的是一个炸弹10分或5分）",
                 "every bomb entered scores on the spot: each other player pays bomb points × stake "
                 "(0–100, 0 = bombs score nothing; tables often play 10 or 5 a bomb)")),
        Option("zhaniao", Zhaniao.OFF, tuple(Zhaniao), t("红桃10扎鸟", "♥10 bird (扎鸟)"),
               t("拿到红桃10的人和别人之间的付分翻倍。「扎鸟只翻牌分」：只翻牌分，炸弹分不翻；"
                 "「扎鸟连炸弹分一起翻」：炸弹分也翻倍。只用于一副牌的预设",
                 "every payment between the ♥10 holder and another player is doubled. “bird doubles card payments”: "
                 "card payments only, bombs are not doubled; “bird doubles card and bomb payments”: bomb payments too. "
                 "One-deck presets only"),
               value_labels={Zhaniao.OFF: t("不扎鸟", "no bird"),
                             Zhaniao.CARDS: t("扎鸟只翻牌分", "bird doubles card payments"),
                             Zhaniao.ALL: t("扎鸟连炸弹分一起翻", "bird doubles card and bomb payments")},
               only_presets=ONE_DECK),
        switch("baopei", t("报单放走包赔", "Let-go pays all (包赔)"),
               t("下家报单时没出最大的单张或能管不管、放走赢家的人，替所有输家付牌分（炸弹分不包）",
                 "the loser who let the winner go out (on one card, it did not play its largest single or "
                 "passed while able to beat) pays every loser's card payment; bombs are not covered")),
        switch("baoben", t("报单保本", "Last card pays nothing (报单保本)"),
               t("输家按「每张1分」付时，只剩1张的输家不付（默认，“报单不出不进”）；关闭后也按1张付",
                 "when losers pay 1 per card, a loser left with one card pays nothing (the default); when off, "
                 "it pays for that card like any other"), default=True),
        switch("baodan_max", t("报单必出最大", "Next on one card: single must be your largest"),
               t("下家只剩1张（报单）时，出单张必须出手里最大的点数",
                 "when the next player holds one card (报单), a single must be of the highest rank you hold")),
        switch("spade3_first", t("首出必带黑桃3", "First play must hold ♠3"),
               t("一局的第一手必须包含♠3", "the first play of a hand must contain ♠3")),
        switch("full_kickers", t("牌够只能三带二", "Triples carry two while you can"),
               t("三张、三带一、三顺和带少牌的飞机只能作为最后一手（出完手牌）；最后一手可以管同样三张数的三带二或飞机。"
                 "只用于一副牌的预设",
                 "a bare triple, 3带1, a bare triple run or a short-winged airplane only as your last play "
                 "(the whole hand); such a last play beats a 3带2 or airplane of as many triples with a lower "
                 "top. One-deck presets only"),
               only_presets=ONE_DECK),
    ),
    presets=(
        Preset(PDK52, t("跑得快 52张（4人×13张）", "Paodekuai, 52 cards (4 × 13)"),
               help=t("一副牌去掉大小王，3最小，2最大，2不进顺子", "one pack without jokers, 3 lowest, 2 highest, "
                      "2 never in a run")),
        Preset(PDK48, t("跑得快 48张（3人×16张）", "Paodekuai, 48 cards (3 × 16)"),
               help=t("去掉♥2 ♣2 ♦2 ♠A（解读：原文只说“48张”，这是常见的16张玩法）",
                      "without ♥2 ♣2 ♦2 ♠A (reading: the source only says “48 cards”; this is the common "
                      "16-card game)"),
               reading=True),
        Preset(PDK45, t("跑得快 十五张（3人×15张）", "Paodekuai, 15 cards (3 × 15)"),
               help=t("一副牌去掉大小王和♥A ♣A ♦A、♥2 ♣2 ♦2和♦K，只剩♠A、♠2和三张K（“十五张玩法”）",
                      "one pack without jokers, ♥A ♣A ♦A, ♥2 ♣2 ♦2 and ♦K: one ace "
                      "(♠A), one 2 (♠2) and three kings (the “15-card game”)")),
        Preset(ZSY, t("争上游 108张（4人×27张）", "Zhengshangyou, 108 cards (4 × 27)"),
               help=t("两副牌带大小王，有同花顺、连三同张带牌、天王炸弹",
                      "two packs with jokers: straight flushes, triple runs with attachments, the four-joker "
                      "bomb")),
    ),
)


VARIANTS = {preset: variant for variant in (PaodekuaiSpec, ZhengshangyouSpec) for preset in variant.presets}


def find_variant(preset: str) -> type[PaodekuaiSpec]:
    """The spec class of a preset (python-chess style: variants are subclasses found by name)."""
    return VARIANTS[preset]


spec_for = spec_cache(lambda rules: find_variant(rules.preset)(rules))


def sort_key_for(rules):
    return spec_for(rules).sort_key()


def pattern_texts(rules) -> list[Text]:
    """The patterns of a preset, for the rules page."""
    return spec_for(rules).pattern_texts()


# ==========================================================================
# Settlement
# ==========================================================================

def multiplier(left: int, dealt: int) -> tuple[int, Text]:
    played = dealt - left
    if played == 0:
        return 4, t("一张没出", "played nothing")
    if played * 4 < dealt:
        return 3, t("出了{p}张，不到四分之一", "played {p}, under a quarter", p=played)
    if played * 2 < dealt:
        return 2, t("出了{p}张，不到一半", "played {p}, under half", p=played)
    return 1, t("出了{p}张，过半", "played {p}, half or more", p=played)


def _dealt(ctx) -> int:
    return PRESETS[ctx.rules.preset]["dealt"]


def _bomb_row(row, ctx, path: str, label: Text) -> InvalidInput | None:
    """A bomb entered with its cards: the cards must be a bomb under the table's preset and options."""
    cards = row.get("cards")
    if not cards or any(r.is_bomb for r in spec_for(ctx.rules).readings(cards)):
        return None
    return InvalidInput(t("{f}：「{c}」在这些规则下不是炸弹", "{f}: “{c}” is not a bomb under these rules",
                          f=label, c=format_cards(cards)), field=f"{path}.cards", code="not_a_bomb")


SETTLE_INPUT = Schema((
    SeatField("winner", t("先出完的人", "who went out first")),
    PerSeatField("cards_left", t("剩余张数", "cards left"), short=t("张数", "left"),
                 item=IntField("cards_left", t("剩余张数", "cards left"), lo=0, hi=_dealt), entry="cards_left",
                 zero_at="winner"),
    RowsField("bombs", t("炸弹", "bombs"), row_label=t("炸弹{n}", "bomb {n}"), max_rows=_dealt,
              fields=(SeatField("seat", t("谁打的", "whose bomb")),
                      CardsField("cards", t("牌", "cards"), required=False)),
              check_row=_bomb_row, help=t("计分的炸弹，每个一行", "the bombs that score, one row each"),
              shown_when=lambda rules: rules.bomb_points > 0),
    SeatField("heart10", t("红桃10在谁手里", "who was dealt ♥10"), required=False,
              shown_when=lambda rules: rules.zhaniao is not Zhaniao.OFF),
    SeatField("let_go", t("谁放走了赢家", "who let the winner go"), required=False,
              help=t("报单放走包赔：没人放走就留空", "包赔: leave empty when nobody let the winner go"),
              shown_when=lambda rules: rules.baopei),
))


def _check_cards_left(winner: int, left: Sequence[int], dealt: int) -> None:
    """Only the winner has 0 cards left; everyone else 1 … the deal."""
    label = SETTLE_INPUT.field("cards_left").label
    problems = []
    for i, n in enumerate(left):
        if i == winner and n != 0:
            problems.append(InvalidInput(t("赢家{s}应剩0张，填的是{n}张", "the winner, {s}, must have 0 cards left, not {n}",
                                           s=seat_name(winner), n=n), field=f"cards_left[{i}]",
                                         code="winner_has_cards"))
        elif i != winner and not 1 <= n <= dealt:
            problems.append(InvalidInput(t("{s}的{f}为{n}：只有赢家剩0张，其他人剩1到{d}张",
                                           "{f} of {s} is {n}: only the winner has 0, every other player 1 to {d}",
                                           s=seat_name(i), f=label, n=n, d=dealt), field=f"cards_left[{i}]",
                                         code="out_of_range"))
    if problems:  # the winner's own box first: it is the one most likely mistyped
        raise InputErrors(sorted(problems, key=lambda e: e.code != "winner_has_cards"))


def _check_house_inputs(values, rules) -> None:
    """The seats the house rules need: ♥10's holder under 扎鸟, a loser as who let the winner go."""
    problems = []
    if rules.zhaniao is not Zhaniao.OFF and values.heart10 is None:
        problems.append(InvalidInput(t("红桃10扎鸟：请填「{f}」", "♥10 bird (扎鸟): give “{f}”",
                                       f=SETTLE_INPUT.field("heart10").label), field="heart10",
                                     code="heart10_required"))
    if rules.baopei and values.let_go is not None and values.let_go == values.winner:
        problems.append(InvalidInput(t("「{f}」是{s}，可{s}是赢家：放走赢家的只能是输家",
                                       "“{f}” is {s}, the winner: only a loser can let the winner go",
                                       f=SETTLE_INPUT.field("let_go").label, s=seat_name(values.let_go)),
                                     field="let_go", code="let_go_is_winner"))
    if problems:
        raise InputErrors(problems)


def card_payment(seat: int, left: int, dealt: int, rules) -> tuple[int, Text]:
    """What one loser pays for the cards it holds (before 扎鸟 and 包赔), and the step saying why."""
    stake = rules.stake
    if rules.penalty is Penalty.SEED:
        mult, why = multiplier(left, dealt)
        pay = left * mult * stake
        return pay, t("{s}：剩{n}张，{why} ×{m} ×底分{st} = −{p}", "{s}: {n} left, {why} ×{m} × stake {st} = −{p}",
                      s=seat_name(seat), n=left, why=why, m=mult, st=stake, p=pay)
    if left == 1 and rules.baoben:
        return 0, t("{s}：只剩1张（报单），不付 = 0", "{s}: 1 card left (last card called), pays nothing = 0",
                    s=seat_name(seat))
    if left == dealt:
        pay = left * 2 * stake
        return pay, t("{s}：剩{n}张，一张没出（全关）×2 ×底分{st} = −{p}",
                      "{s}: {n} left, played nothing (shut out) ×2 × stake {st} = −{p}",
                      s=seat_name(seat), n=left, st=stake, p=pay)
    pay = left * stake
    return pay, t("{s}：剩{n}张 ×底分{st} = −{p}", "{s}: {n} left × stake {st} = −{p}",
                  s=seat_name(seat), n=left, st=stake, p=pay)


def _bird_doubles(seat: int, winner: int, holder: int | None) -> bool:
    """扎鸟: a payment to or from the ♥10 holder is doubled."""
    return holder is not None and holder in (seat, winner)


def card_payments(values, rules, dealt: int, steps: list[Text]) -> dict[int, int]:
    """Steps 1–2 of the pipeline: each loser's card payment, doubled by 扎鸟 where the ♥10 holder is in it."""
    holder = values.heart10 if rules.zhaniao is not Zhaniao.OFF else None
    if values.heart10 is not None and holder is None:
        steps.append(t("扎鸟未开：不用红桃10在谁手里", "扎鸟 off: who held ♥10 is not used"))
    if not rules.baoben and rules.penalty is Penalty.SEED:
        penalty = RULESET.option("penalty")
        steps.append(t("「{b}」只用于「{p}」；按「{s}」，只剩1张也照付",
                       "“{b}” applies to “{p}” only; under “{s}” a 1-card loser pays 1 × multiplier anyway",
                       b=RULESET.option("baoben").label, p=penalty.value_label("per_card"),
                       s=penalty.value_label("seed")))
    pays = {}
    for i, n in enumerate(values.cards_left):
        if i == values.winner:
            continue
        pays[i], step = card_payment(i, n, dealt, rules)
        steps.append(step)
        if _bird_doubles(i, values.winner, holder):
            pays[i] *= 2
            steps.append(t("{s}：红桃10扎鸟：×2 = −{p}", "{s}: ♥10 bird (扎鸟): ×2 = −{p}", s=seat_name(i), p=pays[i]))
    return pays


def pay_cards(values, rules, pays: dict[int, int], deltas: list[int], steps: list[Text]) -> None:
    """Step 3: the card payments go to the winner, all from ``let_go`` under 包赔."""
    winner, let_go = values.winner, values.let_go
    if let_go is not None and not rules.baopei:
        steps.append(t("包赔未开：不用「放走的人」", "包赔 off: let_go not used"))
        let_go = None
    if let_go is not None:
        total = sum(pays.values())
        steps.append(t("报单放走包赔：{s}替所有输家付 {p}", "let-go pays all (包赔): {s} pays every loser's {p}",
                       s=seat_name(let_go), p=total))
        pays = {let_go: total}
    for i, pay in pays.items():
        deltas[i] -= pay
        deltas[values.winner] += pay
    steps.append(t("{s}先出完，收 {p}", "{s} went out first and collects {p}", s=seat_name(winner),
                   p=sum(pays.values())))


def pay_bombs(values, rules, deltas: list[int], steps: list[Text]) -> None:
    """Step 4: each bomb entered is paid by every other seat (×2 to or from ♥10's holder under 扎鸟 all)."""
    if not values.bombs:
        return
    points = rules.bomb_points * rules.stake
    if not points:
        steps.append(t("炸弹分为0：记下的炸弹不计分", "bomb points 0: the bombs entered score nothing"))
        return
    holder = values.heart10 if rules.zhaniao is Zhaniao.ALL else None
    for bomb in values.bombs:
        got = 0
        for payer in range(len(deltas)):
            if payer == bomb.seat:
                continue
            pay = points * (2 if _bird_doubles(payer, bomb.seat, holder) else 1)
            deltas[payer] -= pay
            got += pay
        deltas[bomb.seat] += got
        steps.append(t("{s}的炸弹：其他每人付 炸弹分{b} ×底分{st}{x}，共收 {p}",
                       "{s}'s bomb: every other player pays bomb points {b} × stake {st}{x}, {p} in all",
                       s=seat_name(bomb.seat), b=rules.bomb_points, st=rules.stake, p=got,
                       x=t("（红桃10扎鸟：与红桃10有关的 ×2）", " (♥10 bird: ×2 to or from the holder)")
                       if holder is not None else t("", "")))


def settle(values, rules) -> Settlement:
    dealt = PRESETS[rules.preset]["dealt"]
    _check_cards_left(values.winner, values.cards_left, dealt)
    _check_house_inputs(values, rules)
    deltas = [0] * len(values.cards_left)
    steps: list[Text] = []
    pays = card_payments(values, rules, dealt, steps)
    pay_cards(values, rules, pays, deltas, steps)
    pay_bombs(values, rules, deltas, steps)
    return settlement(deltas, steps, dealt=dealt)


ACTIONS = shedding_actions(spec_for)


#: worked examples for the rules page and the API document; each is a binding example of the rules
EXAMPLES = (
    ("settle", t("52张：1号位出完，其他人剩 5、13、10 张", "52 cards: seat 1 goes out, the others hold 5, 13, 10"),
     {"winner": 0, "cards_left": [0, 5, 13, 10]}),
    ("settle", t("48张（3人）：2号位出完", "48 cards (3 players): seat 2 goes out"),
     {"winner": 1, "cards_left": [4, 0, 12], "rules": {"preset": "paodekuai48"}}),
    ("settle", t("争上游108张：4号位出完，2号位一张没出", "Zhengshangyou, 108 cards: seat 4 goes out, seat 2 played nothing"),
     {"winner": 3, "cards_left": [1, 27, 7, 0], "rules": {"preset": "zhengshangyou108"}}),
    ("settle", t("每张1分：报单不扣、全关加倍", "1 per card: one card left pays 0, none played pays double"),
     {"winner": 0, "cards_left": [0, 1, 3, 13], "rules": {"penalty": "per_card"}}),
    ("check", t("同花顺压顺子（争上游108张）", "a straight flush beats a straight (108 cards)"),
     {"previous": "♠5 ♥6 ♣7 ♦8 ♠9", "play": "♥3 ♥4 ♥5 ♥6 ♥7", "rules": {"preset": "zhengshangyou108"}}),
    ("check", t("3带1 不能压 3带2", "3+1 cannot beat 3+2"),
     {"previous": "♠8 ♥8 ♣8 ♠4 ♥4", "play": "♠10 ♥10 ♣10 ♦3", "rules": {"preset": "paodekuai48"}}),
)


#: the settle answer beyond its deltas and steps: how many cards each player was dealt
SETTLE_ANSWER = answer(field("dealt", "integer"))
#: what its patterns add to a reading: the top rank, a bomb's kickers, a short airplane's triples, a straight
#: flush's suit (争上游)
READING_FIELDS = answer(field("top", "text", required=False), field("kickers", "integer", required=False),
                        field("triples", "integer", required=False), field("suit", "text", required=False))


class Paodekuai(Game):
    slug = "paodekuai"
    examples, settle_answer, reading_fields = EXAMPLES, SETTLE_ANSWER, READING_FIELDS
    name = t("跑得快 / 争上游", "Paodekuai / Zhengshangyou")
    kind = "shedding"
    summary = t("先出完手牌的人赢，输家按剩牌数付分", "first to play out all cards wins; losers pay by the cards they hold")
    ruleset = RULESET
    settle_input = SETTLE_INPUT
    bare_ranks = True  # settle cards (bombs) are same-rank: suits never matter there
    deck_of = staticmethod(deck_for)
    action_table = ACTIONS
    settle_of = staticmethod(settle)

    def seat_range(self, rules=None):
        players = PRESETS[self.ruleset.resolve(rules).preset]["players"]
        return (players, players)

    def preset_for_seats(self, seats, rules=None):
        """The first preset for that many players (3: the 48-card game) when these rules have another count."""
        if self.seat_range(rules)[0] == seats:
            return None
        return next((p for p in self.ruleset.presets if PRESETS[p.name]["players"] == seats), None)


GAME = Paodekuai()
