"""The live-hand protocol (scoring/live.py) as a game declares it, and the one live page that serves it: a hand
started, followed round by round, undone, finished, and what it fills into the game's settle input."""
from __future__ import annotations

import pytest

from scoring.live import LiveHand, LiveState
from scoring.registry import all_games, get_game

LIVE_GAMES = [g for g in all_games() if g.live_hand is not None]
OTHER_GAMES = [g for g in all_games() if g.live_hand is None]


def q783_hand():
    game = get_game("q783")
    return game.live_hand, game.ruleset.resolve({})


def test_a_game_declares_its_live_hand_with_declared_inputs_for_the_start_a_round_and_the_finish():
    assert [g.slug for g in LIVE_GAMES] == ["q783", "hongwu", "erqiwang"]  # one protocol for rounds and tricks
    for game in LIVE_GAMES:
        live = game.live_hand
        assert isinstance(live, LiveHand)
        assert live.start_input.seats_field in [f.name for f in live.start_input.fields]
        assert live.round_input.fields and live.finish_input.fields
    # Q783: a round is one row of the settle input's rounds
    game = get_game("q783")
    rows = game.settle_input.field(game.live_hand.rounds_field)
    assert [f.name for f in game.live_hand.round_input.fields] == [f.name for f in rows.fields]


def test_a_started_hand_is_a_typed_state_with_no_rounds_and_the_start_read_by_the_game():
    live, rules = q783_hand()
    state = live.start({"players": "4", "teams": False, "banks": ["100", 100, 100, 100]}, rules)
    assert isinstance(state, LiveState)
    assert state.start == {"players": 4, "teams": False, "banks": [100, 100, 100, 100]}
    assert state.players == 4 and state.rounds == () and state.finish is None
    assert state.deltas == (0, 0, 0, 0) and state.banks == (100, 100, 100, 100)
    assert not state.closed


def test_adding_a_round_pays_its_winner_at_once_and_keeps_the_round_as_the_game_reads_it():
    live, rules = q783_hand()
    hand = live.kept(live.start({"players": 4, "teams": False, "banks": [100] * 4}, rules))
    state = live.add(hand, {"winner": "2", "won_with": "fu_q783"}, rules)
    assert state.rounds == ({"winner": 2, "won_with": "fu_q783"},)
    assert state.deltas == (-20, -20, 60, -20) and state.banks == (80, 80, 160, 80)


def test_undo_takes_back_the_finish_first_then_the_last_round():
    live, rules = q783_hand()
    hand = live.kept(live.start({"players": 3, "teams": False, "banks": None}, rules))
    hand = live.kept(live.add(hand, {"winner": 0, "cards": "♠Q"}, rules))
    finished, state = live.finish(hand, {"finish_order": [1]}, rules)
    assert state.finished and state.closed
    unfinished = live.undo(finished)
    assert not live.restore(unfinished, rules).finished
    assert live.restore(unfinished, rules).rounds == ({"winner": 0, "cards": "♠Q"},)
    assert live.restore(live.undo(unfinished), rules).rounds == ()


def test_a_round_after_the_finish_is_refused_as_the_game_refuses_it():
    from scoring.errors import PaijuError
    live, rules = q783_hand()
    hand = live.kept(live.start({"players": 3, "teams": False, "banks": None}, rules))
    finished, _ = live.finish(hand, {"finish_order": [1]}, rules)
    with pytest.raises(PaijuError) as caught:
        live.add(finished, {"winner": 0, "cards": "♠Q"}, rules)
    assert caught.value.code == "hand_finished"


def test_the_next_hand_starts_from_the_banks_the_last_one_ended_with():
    live, rules = q783_hand()
    hand = live.kept(live.start({"players": 3, "teams": False, "banks": [100, 100, 100]}, rules))
    hand = live.kept(live.add(hand, {"winner": 1, "cards": "♠9 ♥9"}, rules))
    _, state = live.finish(hand, {"finish_order": [1]}, rules)
    assert live.next_start(state)["banks"] == list(state.banks)
    assert live.start(live.next_start(state), rules).banks == state.banks


def test_a_finished_hand_fills_the_settle_input_and_settles_to_the_same_deltas_and_banks():
    live, rules = q783_hand()
    game = get_game("q783")
    hand = live.kept(live.start({"players": 4, "teams": True, "banks": [100, 150, 100, 150]}, rules))
    for rnd in ({"winner": 0, "won_with": "plain"}, {"winner": 3, "cards": "♥Q ♥7 ♥8 ♥3"}):
        hand = live.kept(live.add(hand, rnd, rules))
    _, state = live.finish(hand, {"finish_order": ["1", "3"]}, rules)
    payload = live.settle_payload(state)
    assert payload == {"players": 4, "teams": True, "rounds": list(state.rounds), "finish_order": [1, 3],
                       "banks": [100, 150, 100, 150]}
    settled = game.run("settle", payload)
    assert tuple(settled["deltas"]) == state.deltas and tuple(settled["banks"]) == state.banks


def test_a_round_is_told_in_a_few_words_of_what_won_it():
    live, _ = q783_hand()
    assert live.round_words({"winner": 0, "cards": "♠Q"}).en == "{c}"
    assert live.round_words({"winner": 0, "won_with": "fu_q783"}).zh == "副Q783"
    assert live.round_words({"winner": 0, "count": 3}).params == {"n": 3}


def test_what_can_win_a_round_follows_the_house_rules():
    live, _ = q783_hand()
    game = get_game("q783")
    by_pattern = dict(live.choices("won_with", game.ruleset.resolve({})))
    assert "plain" in by_pattern and "bomb3" not in by_pattern
    assert "bomb3" in dict(live.choices("won_with", game.ruleset.resolve({"three_bombs": True})))
    assert live.choices("won_with", game.ruleset.resolve({"scoring": "cards"})) == ()


# -- the one live page --------------------------------------------------------------------------------------

@pytest.fixture
def client(app):
    app.config["WTF_CSRF_ENABLED"] = False  # CSRF has tests of its own; here the posts are the point
    return app.test_client()


@pytest.mark.parametrize("game", LIVE_GAMES, ids=lambda g: g.slug)
def test_the_live_page_serves_every_game_that_declares_a_live_hand(client, game):
    resp = client.get(f"/{game.slug}/rounds")
    assert resp.status_code == 200
    assert 'name="action" value="start"' in resp.get_data(as_text=True)


@pytest.mark.parametrize("game", OTHER_GAMES, ids=lambda g: g.slug)
def test_the_live_page_is_not_found_for_a_game_without_a_live_hand(client, game):
    assert client.get(f"/{game.slug}/rounds").status_code == 404


def test_the_live_page_draws_a_rounds_choices_from_the_declaration_under_the_house_rules(client):
    by_pattern = client.get("/q783/rounds").get_data(as_text=True)
    assert 'name="players"' in by_pattern and 'name="bank_5"' in by_pattern
    started = client.post("/q783/rounds", data={"action": "start", "players": "3"}).get_data(as_text=True)
    assert 'name="won_with" value="fu_q783"' in started and 'name="winner" value="2"' in started
    assert 'name="winner" value="3"' not in started and 'name="place_2"' in started
