"""Every legal move string python-chess writes (SAN, UCI, long algebraic)
parses to the same move in every variant on the orthodox 8x8 board, in
random positions (issue 19: a lower-case letter is a file, and a move given
by its squares wins). Fluky, Metamorph (5x5) and Cubic (its own pawn moves)
are outside python-chess; their SAN round trips are in tests/parse_fuzz.rs."""

from __future__ import annotations

import random

import pytest

import dicechess as dc

chess = pytest.importorskip("chess")

ORTHODOX_BOARD = ("chess", "vegas", "random_move_number")


def _positions(variant: str, n: int, seed: int) -> list[dc.State]:
    """Decision nodes along random games."""
    rng = random.Random(seed)
    out: list[dc.State] = []
    while len(out) < n:
        s = dc.State(variant, max_plies=200)
        while not s.is_terminal() and len(out) < n:
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(acts, weights=probs)[0])
                continue
            if rng.random() < 0.3:
                out.append(s.clone())
            s.apply_action(rng.choice(s.legal_actions()))
    return out


@pytest.mark.parametrize("variant", ORTHODOX_BOARD)
def test_every_move_string_of_python_chess_parses(variant: str) -> None:
    checked = 0
    for s in _positions(variant, 60, seed=len(variant)):
        board = chess.Board(" ".join(s.fen().split()[:6]))
        by_san = {board.san(m).rstrip("+#"): m for m in board.legal_moves}
        for a in s.legal_actions():
            text = s.action_to_string(a)
            if text == "pass":
                continue
            m = by_san[text.rstrip("+#")]
            for written in (board.san(m), m.uci(), board.lan(m), board.lan(m).rstrip("+#")):
                assert s.string_to_action(written) == a, (s.fen(), written, text)
            checked += 1
    assert checked > 500
