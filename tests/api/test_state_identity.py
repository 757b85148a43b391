"""State identity: ==, hash, key(), copy (docs/records.md)."""

import copy

import pytest

import dicechess as dc


def _play(s: dc.State, moves: list[str]) -> dc.State:
    for m in moves:
        s.apply_san(m)
    return s


def test_transpositions_equal_with_equal_hash_and_key() -> None:
    a = _play(dc.State("chess"), ["e3", "Nf6", "d3"])
    b = _play(dc.State("chess"), ["d3", "Nf6", "e3"])
    assert a.history() != b.history()
    assert a == b and hash(a) == hash(b) and a.key() == b.key()
    assert a != dc.State("chess") and a.key() != dc.State("chess").key()
    assert len({a, b, dc.State("chess")}) == 2


def test_repetition_history_and_options_count() -> None:
    # Same board, but one has been seen twice: threefold is nearer.
    a = _play(dc.State("chess"), ["Nf3", "Nf6", "Ng1", "Ng8"])
    assert a.fen().split()[:4] == dc.State("chess").fen().split()[:4]
    assert a != dc.State("chess")
    assert dc.State("chess", max_plies=10) != dc.State("chess")
    assert dc.State("chess") != "not a state"


@pytest.mark.parametrize("variant", ["vegas", "dice_chess", "dice_chess3", "random_move_number"])
def test_different_dice_different_keys(variant: str) -> None:
    s = dc.State(variant)
    by_key: dict[int, set[str]] = {}
    for a, _ in s.chance_outcomes():
        t = s.clone()
        t.apply_action(a)
        by_key.setdefault(t.key(), set()).add(str(t))
    # Different shown states never share a key; equal ones always do.
    assert len(by_key) > 1
    assert all(len(v) == 1 for v in by_key.values())
    assert len({next(iter(v)) for v in by_key.values()}) == len(by_key)


def test_copy_is_equal_and_independent() -> None:
    s = dc.State("vegas")
    s.apply_action(s.chance_outcomes()[0][0])
    for c in (s.copy(), copy.copy(s), copy.deepcopy(s), s.clone()):
        assert c == s and c.key() == s.key() and c.history() == s.history()
        c.apply_action(c.legal_actions()[0])
        assert c != s


def test_key_is_stable() -> None:
    # The same on every run and platform (FNV-1a over the serialised state);
    # a change here means a state layout changed: say so in the changelog.
    k = dc.State("chess").key()
    assert 0 <= k < 2**64
    assert k == dc.State("chess").key() == dc.State("chess").copy().key()
