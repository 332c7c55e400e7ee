"""``python -m bench``'s summary of issue 42's table (``bench/goals.py``), from figures given to it: no part is
run here (the parts are timings, in bench/, never in a test)."""
import pytest

from bench import __main__ as bench_main
from bench import goals


def table_lines(lines: list[str]) -> dict[str, list[str]]:
    """The summary's table rows by their first cell: [what, this run, goal, verdict]."""
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines if line.startswith("| ")]
    return {row[0]: row[1:] for row in cells[1:]}


def test_the_summary_lists_every_row_of_issue_42s_table_with_its_figure_goal_and_verdict():
    rows = [goal.row(goal.at_most + (1 if i % 2 else 0), f"case {i}") for i, goal in enumerate(goals.GOALS)]
    table = table_lines(goals.summary(rows, list(goals.PARTS)))
    assert list(table) == [goal.what for goal in goals.GOALS]
    for i, goal in enumerate(goals.GOALS):
        figure, ceiling, verdict = table[goal.what]
        assert figure == f"{goal.shown(goal.at_most + (1 if i % 2 else 0))} (case {i})"
        assert ceiling == f"≤ {goal.shown()}"
        assert verdict == ("MISSED" if i % 2 else "met")


def test_the_summary_counts_rows_met_missed_and_not_measured():
    lines = goals.summary([goals.PEER.row(1.2), goals.HINT_DEFAULT.row(40.0)], ["peer", "hints"])
    assert lines[-1] == f"1 of {len(goals.GOALS)} rows within their goal, 1 missed, {len(goals.GOALS) - 2} not measured"


def test_a_row_two_parts_measure_shows_the_worse_figure_and_where_it_was_found():
    rows = [goals.HINT_5000.row(80.0, "hints: a lead"), goals.HINT_5000.row(120.0, "search: 双扣 千变"),
            goals.HINT_5000.row(90.0, "hints: a follow")]
    figure, _, verdict = table_lines(goals.summary(rows, ["hints", "search"]))[goals.HINT_5000.what]
    assert (figure, verdict) == ("120.0 ms (search: 双扣 千变)", "MISSED")


@pytest.mark.parametrize(("ran", "failed", "why"), [([], [], "part offline not run"),
                                                     (["offline"], ["offline"], "part offline failed"),
                                                     (["offline"], [], "not measured")])
def test_a_row_without_a_figure_says_why(ran, failed, why):
    figure, _, verdict = table_lines(goals.summary([], ran, failed))[goals.OFFLINE_WIRE.what]
    assert (figure, verdict) == (f"— ({why})", "—")


def test_a_goal_outside_the_table_is_listed_after_it():
    on_postgres = goals.Goal(f"{goals.LONG_EDIT.what}, PostgreSQL", 30, "ms", "ledger", 0)
    table = table_lines(goals.summary([on_postgres.row(31.4, "PostgreSQL")], ["ledger"]))
    assert list(table)[-1] == on_postgres.what
    assert table[on_postgres.what] == ["31 ms (PostgreSQL)", "≤ 30 ms", "MISSED"]


def test_the_goals_group_runs_every_part_that_measures_a_row():
    assert set(bench_main.part_names(["goals"])) == set(goals.PARTS)
    assert bench_main.part_names(["peer", "goals", "3"])[0] == "peer"
    assert len(bench_main.part_names(["goals", "hints"])) == len(set(goals.PARTS))


def test_a_run_ends_with_the_summary_of_the_rows_its_parts_returned_and_goes_on_past_a_failed_part(
        monkeypatch, capsys):
    def broken(repeat):
        raise RuntimeError("no browser")

    monkeypatch.setattr(bench_main, "PARTS", {"peer": lambda repeat: [goals.PEER.row(1.4, "µs")],
                                              "offline": broken, "ledger": lambda repeat: 0})
    assert bench_main.main(["peer", "offline", "ledger"]) == 1
    out = capsys.readouterr().out
    assert "RuntimeError: no browser" in out and out.rstrip().endswith("failed: offline (see above)")
    table = table_lines(out.split("== summary ==")[1].splitlines())
    assert table[goals.PEER.what] == ["1.40× (µs)", "≤ 1.5×", "met"]
    assert table[goals.OFFLINE_WIRE.what][0] == "— (part offline failed)"
    assert table[goals.LONG_EDIT.what][0] == "— (not measured)"


def test_a_run_of_parts_that_measure_no_row_prints_no_summary(monkeypatch, capsys):
    monkeypatch.setattr(bench_main, "PARTS", {"trick": lambda repeat: 0})
    assert bench_main.main(["trick"]) == 0
    assert "== summary ==" not in capsys.readouterr().out
