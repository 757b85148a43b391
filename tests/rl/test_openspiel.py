"""OpenSpiel bridge: registration, chance nodes, MCTSBot and expectiminimax."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import mcts, minimax  # noqa: E402

import dicechess as dc  # noqa: E402
from dicechess.openspiel import game_name, load_game  # noqa: E402

VARIANTS = dc.variants()


@pytest.mark.parametrize("variant", VARIANTS)
def test_registered_and_random_games(variant):
    assert game_name(variant) in pyspiel.registered_names()
    game = load_game(variant, max_plies=80)
    gt = game.get_type()
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == dc.num_actions(variant)
    rng = np.random.default_rng(0)
    for _ in range(3):
        state = game.new_initial_state()
        ref = dc.State(variant, max_plies=80)
        while not state.is_terminal():
            if state.is_chance_node():
                outs = state.chance_outcomes()
                assert outs == ref.chance_outcomes()
                assert abs(sum(p for _, p in outs) - 1) < 1e-9
                a = outs[rng.integers(len(outs))][0]
            else:
                assert state.current_player() == ref.current_player()
                assert state.legal_actions() == ref.legal_actions()
                a = state.legal_actions()[rng.integers(len(state.legal_actions()))]
                assert state.action_to_string(state.current_player(), a) == ref.action_to_string(a)
            state.apply_action(a)
            ref.apply_action(a)
        assert state.returns() == ref.returns()
        c = state.clone()
        assert str(c) == str(state)


def test_bad_variant_and_options():
    with pytest.raises(ValueError, match="unknown variant"):
        load_game("nope")
    with pytest.raises(ValueError):
        load_game("chess", bogus=1)


def test_expectiminimax_finds_mate_in_one():
    game = load_game("chess", fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    state = game.new_initial_state()
    value, action = minimax.expectiminimax(state, 1, lambda s: 0.0, 0)
    assert value == 1.0
    assert state.action_to_string(0, action) == "Ra8#"


def test_expectiminimax_over_chance_vegas():
    # Vegas: the mover rolls first; expectiminimax averages over the dice.
    # Loaded dice: die A shows a rook half the time, die B always a pawn;
    # white (no pawns) mates with Ra8# exactly when a rook is rolled.
    game = load_game(
        "vegas", fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", die_a="RRRPPP", die_b="PPPPPP"
    )
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert sorted(p for _, p in state.chance_outcomes()) == [0.5, 0.5]
    value, _ = minimax.expectiminimax(state, 1, lambda s: 0.0, 0)
    assert value == 0.5


@pytest.mark.parametrize("variant", ["chess", "vegas", "fluky"])
def test_mcts_bot_plays(variant):
    game = load_game(variant, max_plies=40)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, 1.4, 30, evaluator, random_state=rng)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 10:
        if state.is_chance_node():
            outs = state.chance_outcomes()
            state.apply_action(outs[0][0])
        else:
            a = bot.step(state)
            assert a in state.legal_actions()
            state.apply_action(a)
        steps += 1


def test_mcts_finds_mate_in_one():
    game = load_game("chess", fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=rng)
    bot = mcts.MCTSBot(game, 1.4, 300, evaluator, random_state=rng, solve=True)
    state = game.new_initial_state()
    assert state.action_to_string(0, bot.step(state)) == "Ra8#"


@pytest.mark.parametrize("variant", ["fluky", "vegas"])
def test_games_pickle(variant):
    import pickle

    game = load_game(variant, max_plies=50)
    back = pickle.loads(pickle.dumps(game))
    assert type(back) is type(game)
    assert back.get_parameters() == game.get_parameters() == {"options": '{"max_plies": 50}'}
    assert back.max_game_length() == game.max_game_length()
    assert str(back.new_initial_state()) == str(game.new_initial_state())
