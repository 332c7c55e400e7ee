"""Worked examples for the rules pages, computed live by the engine."""
from __future__ import annotations

from scoring.errors import PaijuError
from scoring.i18n import render, t

EXAMPLES = {
    # Every example is a binding example of the game's rules spec (<slug>.md); the
    # rules-page tests check the deltas and verdicts the spec gives for them.
    "paodekuai": [
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
    ],
    "shuangkou": [
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
    ],
    "q783": [
        ("settle", t("不分队：三圈收分，3号位先出完，分库见底", "solo: three rounds, seat 3 goes out first, banks run dry"),
         {"players": 4, "teams": False, "banks": [100, 100, 100, 100],
          "rounds": [{"winner": 0, "cards": "♠Q"}, {"winner": 2, "cards": "♥Q ♥7 ♥8 ♥3"},
                     {"winner": 1, "cards": "♠4 ♥4 ♣4 ♦4 ♠4"}],
          "finish_order": [2]}),
        ("settle", t("按出牌张数收分，不计罚分", "paid by the cards played, no penalty"),
         {"players": 4, "teams": False, "banks": [100, 100, 100, 100],
          "rounds": [{"winner": 0, "count": 1}, {"winner": 2, "count": 4}, {"winner": 1, "count": 5}],
          "finish_order": [2], "rules": {"scoring": "cards", "penalty": 0}}),
        ("settle", t("分队：1号位一对赢一圈，2、4号位先出完", "teams: seat 1 wins a round with a pair, seats 2 and 4 go out first"),
         {"players": 4, "teams": True, "banks": [250, 250, 250, 250],
          "rounds": [{"winner": 0, "cards": "♠Q ♥Q"}], "finish_order": [1, 3]}),
        ("check", t("正Q783 管副Q783", "正Q783 beats 副Q783"),
         {"previous": "♠Q ♥7 ♥8 ♣3", "play": "♦Q ♦7 ♦8 ♦3"}),
        ("check", t("4张炸管正Q783", "a 4-bomb beats 正Q783"),
         {"previous": "♦Q ♦7 ♦8 ♦3", "play": "♠4 ♥4 ♣4 ♦4"}),
    ],
    "hongwu": [
        ("settle", t("叫100，得120，底牌15归庄家 → 35", "bid 100, won 120, bottom 15 scored → 35"),
         {"declarer": 0, "bid": 100, "declarer_points": 120, "bottom_points": 15,
          "declarer_took_bottom": True, "red_fives": []}),
        ("settle", t("2号位坐庄，叫80，庄家的红五被4号位抓 → 0（0分算输）",
                     "seat 2 declares, bid 80, the 庄家's red five captured by seat 4 → 0 (0 loses)"),
         {"declarer": 1, "bid": 80, "declarer_points": 90, "bottom_points": 10,
          "declarer_took_bottom": True, "red_fives": [{"owner": 1, "captured_by": 3}]}),
        ("settle", t("庄家抓到3号位的红五 → 5", "the 庄家 captures seat 3's red five → 5"),
         {"declarer": 0, "bid": 100, "declarer_points": 75, "bottom_points": 10,
          "declarer_took_bottom": True, "red_fives": [{"owner": 2, "captured_by": 0}]}),
        ("trick", t("红桃做主：红五最大", "hearts trump: the red five is highest"),
         {"trump": "♥", "plays": ["大王", "♥5", "小王", "♠2"]}),
        ("trick", t("黑桃做主：毙牌要同牌型", "spades trump: a ruff must match the shape"),
         {"trump": "♠", "plays": ["♣K ♣K", "♠4 ♠6"]}),
        ("check", t("有对子必须跟对", "holding a pair, you must follow with it"),
         {"trump": "♠", "lead": "♣K ♣K", "play": "♣9 ♣4", "hand": "♣9 ♣9 ♣4 ♥A"}),
    ],
    "erqiwang": [
        ("settle", t("叫60，闲家100分：检分一次", "bid 60, the 闲家 took 100: one extra stake"),
         {"declarer": 0, "bid": 60, "defender_points": 100}),
        ("settle", t("叫55，闲家25分：小光（线是30）", "bid 55, the 闲家 took 25: 小光 (line 30)"),
         {"declarer": 0, "bid": 55, "defender_points": 25}),
        ("settle", t("叫60，闲家0分：大光", "bid 60, the 闲家 took 0: 大光"),
         {"declarer": 0, "bid": 60, "defender_points": 0}),
        ("settle", t("冲关：2号位报了3王 + 正7对", "冲关: seat 2 declared 3 jokers + a pair of trump 7s"),
         {"declarer": 0, "bid": 80, "defender_points": 50,
          "chongguan": [{"seat": 1, "jokers": 3, "trump7_pairs": 1, "off7_pairs": 0,
                         "trump2_pairs": 0, "off2_pairs": 0}]}),
        ("trick", t("黑桃做主：大王 > 主7 > 副7", "spades trump: 大王 > trump 7 > other 7s"),
         {"trump": "♠", "plays": ["♥7", "♠7", "大王", "♦7"]}),
        ("trick", t("黑桃做主：主牌对子毙对子", "spades trump: a trump pair ruffs a pair"),
         {"trump": "♠", "plays": ["♥A ♥A", "♠3 ♠3"]}),
    ],
}


def examples_for(game, lang: str) -> list[dict]:
    out = []
    for action, title, payload in EXAMPLES.get(game.slug, []):
        if action not in game.action_names():
            continue
        try:
            result = render(game.run(action, payload), lang)
        except PaijuError as exc:  # an example must never break the page
            result = {"error": render(exc.message, lang)}
        out.append({"action": action, "title": render(title, lang), "payload": payload, "result": result})
    return out
