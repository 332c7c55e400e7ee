"""An answer does not depend on the process that gives it: Python salts str hashes per process, so a set of
suits or names iterated for an answer would order it differently on two server processes."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = """
import json
from scoring.registry import get_game
game = get_game("paodekuai")
print(json.dumps(game.run("hint", {"hand": "S10 SJ SQ SK SA C10 CJ CQ CK CA H10 HJ HQ HK HA D3",
                                   "previous": None, "rules": {"preset": "zhengshangyou108"}, "limit": 5000}),
                 default=str, ensure_ascii=False))
"""


def answer_under(seed: int) -> str:
    env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, check=True,
                          cwd=ROOT).stdout


def test_a_hint_with_straight_flushes_of_three_suits_is_the_same_under_every_hash_seed():
    answers = {answer_under(seed) for seed in (0, 1, 2, 3, 4, 5)}
    assert len(answers) == 1
    assert "♥10 ♥J ♥Q ♥K ♥A" in json.loads(answers.pop())["plays"]
