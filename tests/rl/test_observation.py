"""Observation planes on hand-made positions, and action spaces on every variant."""

import numpy as np
import pytest

import dicechess as dc

VARIANTS = dc.variants()


def plane(s, name, player=None):
    return s.observation_tensor(player)[s.observation_planes().index(name)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_planes_module_function(variant):
    names = dc.observation_planes(variant)
    s = dc.State(variant)
    assert names == s.observation_planes()
    assert names[:2] == ["own_pawn", "own_knight"]
    side = dc.variant_info()[variant].board_size
    assert s.observation_tensor().shape == (len(names), side, side)
    with pytest.raises(ValueError):
        dc.observation_planes("nope")


def test_flip_for_black():
    s = dc.State("chess", fen="4k3/8/8/8/8/8/1P6/4K2R w K - 0 1")
    w = s.observation_tensor(0)
    b = s.observation_tensor(1)
    # white's view: row = rank - 1; black's view: row = 8 - rank
    assert plane(s, "own_pawn", 0)[1, 1] == 1 and plane(s, "own_pawn", 0).sum() == 1
    assert plane(s, "opponent_pawn", 1)[6, 1] == 1
    assert plane(s, "opponent_king", 1)[7, 4] == 1 and plane(s, "own_king", 1)[0, 4] == 1
    assert (plane(s, "plays_black", 1) == 1).all() and (plane(s, "plays_black", 0) == 0).all()
    assert (plane(s, "to_move", 0) == 1).all() and (plane(s, "to_move", 1) == 0).all()
    assert (plane(s, "own_castle_kingside", 0) == 1).all()
    assert (plane(s, "opponent_castle_kingside", 1) == 1).all()
    assert (plane(s, "own_castle_kingside", 1) == 0).all()
    # the two views are the same position seen from the other side
    k = dc.State("chess", fen="4k2r/1p6/8/8/8/8/8/4K3 b k - 0 1")
    np.testing.assert_array_equal(k.observation_tensor(1)[:14], w[:14])
    np.testing.assert_array_equal(k.observation_tensor(0)[:12], b[:12])


def test_vegas_dice_planes():
    s = dc.State("vegas")
    assert s.is_chance_node()
    assert s.observation_tensor(0)[22:].sum() == 0
    names = s.observation_planes()
    for a, _ in s.chance_outcomes():
        t = s.clone()
        t.apply_action(a)
        dice = t.dice
        if dice is None:  # no roll shown (e.g. the roll left no move)
            continue
        obs = t.observation_tensor(0)
        on = {names[i] for i in range(22, len(names)) if obs[i].all()}
        role = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen", "K": "king"}
        want = {f"die_a_{role.get(dice[0], 'optional')}", f"die_b_{role.get(dice[1], 'optional')}"}
        assert on == want, (dice, on)
        # dice planes do not depend on the viewer
        np.testing.assert_array_equal(obs[22:], t.observation_tensor(1)[22:])


def test_fluky_die_to_roll_plane():
    s = dc.State("fluky")  # 5x5 board
    s.apply_san("c3")
    assert s.is_chance_node()
    p = plane(s, "die_to_roll", 0)
    assert p.sum() == 1 and p[2, 2] == 1  # c3 from white's view
    s = dc.State("fluky")
    s.apply_san("b3")
    p = plane(s, "die_to_roll", 0)
    assert p.sum() == 1 and p[2, 1] == 1
    q = plane(s, "die_to_roll", 1)
    assert q.sum() == 1 and q[2, 1] == 1  # rank 3 of 5 is the middle row either way
    s.apply_action(s.chance_outcomes()[0][0])
    assert plane(s, "die_to_roll", 0).sum() == 0


def test_cubic_stock_planes():
    s = dc.State("cubic", fen="4k3/p7/8/8/8/8/P6P/4K3[NQn] w - - 5 10")
    assert (plane(s, "own_stock_knight_count/8", 0) == 1 / 8).all()
    assert (plane(s, "own_stock_queen_count/8", 0) == 1 / 8).all()
    assert (plane(s, "own_stock_rook_count/8", 0) == 0).all()
    assert (plane(s, "opponent_stock_knight_count/8", 0) == 1 / 8).all()
    assert (plane(s, "opponent_stock_queen_count/8", 0) == 0).all()
    assert (plane(s, "own_stock_knight_count/8", 1) == 1 / 8).all()
    assert (plane(s, "opponent_stock_queen_count/8", 1) == 1 / 8).all()
    assert (plane(s, "own_stock_queen_count/8", 1) == 0).all()


def test_rmnc_moves_left_and_runs():
    s = dc.State("random_move_number")
    rng = np.random.default_rng(1)
    seen = False
    for _ in range(60):
        if s.is_terminal():
            break
        if s.is_chance_node():
            outs = s.chance_outcomes()
            s.apply_action(outs[rng.integers(len(outs))][0])
            continue
        p = s.current_player()
        ml = plane(s, "moves_left_div8_capped", p)
        assert np.allclose(ml, min(s.moves_left / 8, 1.0))
        rec = s.throw_records
        if rec[p]:
            assert np.allclose(plane(s, "own_last_throw_div6", p), rec[p][-1] / 6)
            seen = True
        if rec[1 - p]:
            assert np.allclose(plane(s, "opponent_last_throw_div6", p), rec[1 - p][-1] / 6)
        s.apply_action(s.legal_actions()[0])
    assert seen


@pytest.mark.parametrize("variant", VARIANTS)
def test_masks_and_action_strings_on_random_games(variant):
    rng = np.random.default_rng(42)
    n = dc.num_actions(variant)
    for _ in range(3):
        s = dc.State(variant, max_plies=150)
        while not s.is_terminal():
            if s.is_chance_node():
                outs = s.chance_outcomes()
                s.apply_action(outs[rng.integers(len(outs))][0])
                continue
            mask = s.legal_actions_mask()
            assert mask.shape == (n,)
            legal = s.legal_actions()
            assert np.flatnonzero(mask).tolist() == legal
            for a in legal:
                assert s.string_to_action(s.action_to_string(a)) == a
            obs = s.observation_tensor()
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            s.apply_action(legal[rng.integers(len(legal))])
