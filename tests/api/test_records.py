"""Game records (PGN-compatible text and JSON Lines): exact round trips on
random and agent games of every variant, python-chess reading them, errors."""

from __future__ import annotations

import io
import random

import chess.pgn
import pytest

import dicechess as dc
from dicechess import records


def _random_game(variant: str, seed: int, plies: int = 400) -> dc.State:
    rng = random.Random(seed)
    s = dc.State(variant)
    for _ in range(plies):
        if s.is_terminal():
            break
        if s.is_chance_node():
            outs = s.chance_outcomes()
            s.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    return s


def _agent_game(variant: str, seed: int) -> dc.State:
    rng = random.Random(seed)
    agents = [dc.Agent("greedy", seed=seed), dc.Agent("random", seed=seed + 1)]
    s = dc.State(variant, max_plies=60)
    while not s.is_terminal():
        if s.is_chance_node():
            outs = s.chance_outcomes()
            s.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
        else:
            s.apply_action(agents[s.current_player()].select(s))
    return s


def _check_round_trip(s: dc.State) -> None:
    text = records.to_pgn(s, Event="test", White="a", Black="b")
    (back,) = records.read_pgn(text)
    assert back.variant == s.variant and back.actions == s.history()
    assert back.tags["Event"] == "test" and back.tags["White"] == "a"
    t = back.state()
    assert t == s and t.returns() == s.returns() and t.termination() == s.termination()
    assert records.to_pgn(back) == records.to_pgn(s, Event="test", White="a", Black="b")
    buf = io.StringIO()
    records.write_jsonl([s, records.record(s, seed=7)], buf)
    a, b = records.read_jsonl(io.StringIO(buf.getvalue()))
    assert a.state() == s == b.state() and b.seed == 7
    assert a.options == s.options


@pytest.mark.parametrize("variant", dc.variants())
def test_random_games_round_trip(variant: str) -> None:
    for seed in range(4):
        _check_round_trip(_random_game(variant, seed))
    _check_round_trip(_random_game(variant, 9, plies=7))  # unfinished


@pytest.mark.parametrize("variant", dc.variants())
def test_agent_games_round_trip(variant: str) -> None:
    s = _agent_game(variant, 3)
    assert s.is_terminal()
    _check_round_trip(s)


def test_replay_states_and_options() -> None:
    s = dc.State("cubic", fen="4k3/p7/8/8/8/8/P6P/4K3[NQn] w - - 5 10", max_plies=40)
    s = _random_game_from(s, 1)
    text = records.to_pgn(s)
    assert '[SetUp "1"]' in text and '[FEN "4k3/p7/8/8/8/8/P6P/4K3[NQn] w - - 5 10"]' in text
    (rec,) = records.read_pgn(text)
    states = list(rec.states())
    assert len(states) == len(s.history()) + 1 and states[-1] == s
    assert states[0].fen() == "4k3/p7/8/8/8/8/P6P/4K3[NQn] w - - 5 10"


def _random_game_from(s: dc.State, seed: int) -> dc.State:
    rng = random.Random(seed)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_python_chess_reads_orthodox_records() -> None:
    for seed in range(5):
        s = _random_game("chess", seed)
        game = chess.pgn.read_game(io.StringIO(records.to_pgn(s)))
        assert game is not None and game.errors == []
        ours = [s.action_to_string(a) for a in []]
        board = chess.Board()
        sans = []
        for mv in game.mainline_moves():
            sans.append(board.san(mv))
            board.push(mv)
        t = dc.State("chess")
        for a in s.history():
            ours.append(t.action_to_string(a))
            t.apply_action(a)
        assert sans == ours
        assert game.headers["Result"] == records.to_pgn(s).split('[Result "')[1].split('"')[0]


def test_python_chess_reads_a_dice_record() -> None:
    # Vegas on the standard board: python-chess does not know the variant
    # (one error, recorded not raised) and reads the moves as chess moves,
    # skipping the {roll ...} comments; passes are PGN null moves ("--").
    for seed in range(3):
        s = _random_game("vegas", seed, plies=40)
        game = chess.pgn.read_game(io.StringIO(records.to_pgn(s)))
        assert game is not None
        assert any("variant" in str(e) for e in game.errors)
        ours = []
        t = dc.State("vegas")
        for a in s.history():
            if not t.is_chance_node():
                text = t.action_to_string(a)
                ours.append("--" if text == "pass" else text.rstrip("+#"))
            t.apply_action(a)
        board = chess.Board()
        theirs = []
        for mv in game.mainline_moves():
            theirs.append(board.san(mv).rstrip("+#") if mv else "--")
            board.push(mv)
        # Vegas moves are chess moves (no check rule differences in these
        # openings): python-chess gets the same moves while they stay legal.
        assert theirs == ours[: len(theirs)] and len(theirs) > 0


@pytest.mark.parametrize("variant", dc.variants())
def test_which_records_python_chess_reads(variant: str) -> None:
    """What README.md and docs/records.md say: python-chess reads the records of orthodox chess
    (every move, no error); every other variant's record it flags as an unsupported variant, and
    its moves stop being chess moves within a few plies (dice, drops, 5x5 boards, passes)."""
    read_all = 0
    for seed in range(10):
        s = _random_game(variant, seed, plies=40)
        game = chess.pgn.read_game(io.StringIO(records.to_pgn(s)))
        assert game is not None
        moves = len(list(game.mainline_moves()))
        if variant == "chess":
            assert game.errors == [] and moves == s.plies
        else:
            assert any("unsupported variant" in str(e) for e in game.errors), game.errors
            read_all += moves == s.plies and len(game.errors) == 1
    if variant != "chess":
        assert read_all < 10, "python-chess read every game: the docs undersell it"


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ('[Variant "vegas"]\n\n1. e4', "line 3, column 4", "roll"),
        ('[Variant "chess"]\n\n1. e4 e5 2. Ke3', "line 3, column 13", "Ke3"),
        ('[Variant "nope"]\n\n1. e4', "line 3, column 1", "unknown variant"),
        ('[Event "x"\n', "line 2, column 1", "expected ']'"),
        ("1. e4 {open", "line 1, column 7", "'}'"),
        ('[Result "1-0"]\n\n1. e4 *', "line 3", "Result tag says 1-0"),
        ("1. e4 {roll 6}", "line 1, column 7", "no dice"),
        ('[VariantOptions "[1]"]\n\n1. e4', "line 3", "JSON object"),
    ],
)
def test_pgn_errors_say_where_and_what(text: str, where: str, what: str) -> None:
    with pytest.raises(ValueError) as e:
        records.read_pgn(text)
    assert where in str(e.value) and what in str(e.value)


def test_jsonl_errors() -> None:
    good = records.to_jsonl_line(_random_game("fluky", 1))
    for bad, what in [
        ("{", "line 2"),
        ('{"variant": "chess"}', "actions"),
        ('{"variant": "chess", "actions": [99999]}', "cannot be replayed"),
        (good.replace('"result":"', '"result":"x'), "result"),
    ]:
        with pytest.raises(ValueError, match=what):
            records.read_jsonl(io.StringIO(good + "\n" + bad + "\n"))


def test_mutated_records_never_crash() -> None:
    # A small fuzz: every mutation reads back or raises ValueError.
    rng = random.Random(0)
    base = records.to_pgn(_random_game("dice_chess3", 2, plies=60))
    alphabet = ' \n[]{}()"\\;%$.-01*abcdefgh12345678NBRQKx=+#'
    for _ in range(500):
        t = list(base)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(t))
            op = rng.randrange(3)
            if op == 0:
                del t[i]
            elif op == 1:
                t.insert(i, rng.choice(alphabet))
            else:
                t[i] = rng.choice(alphabet)
        try:
            recs = records.read_pgn("".join(t))
        except ValueError:
            continue
        for r in recs:
            r.state()


def test_write_and_read_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    games = [_random_game(v, 5, plies=30) for v in ("chess", "cubic_checkers")]
    assert records.write_pgn(games, tmp_path / "g.pgn") == 2
    assert records.write_jsonl(games, tmp_path / "g.jsonl") == 2
    for name in ("g.pgn", "g.jsonl"):
        back = records.read_file(tmp_path / name)
        assert [r.state() for r in back] == games


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        records.to_pgn("e4")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        records.read_pgn(b"1. e4")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("variant", "agents"), [("vegas", ("random", "random")), ("fluky", ("greedy", "random"))]
)
def test_playouts_save_their_games(tmp_path, variant: str, agents: tuple[str, str]) -> None:  # type: ignore[no-untyped-def]
    plain = dc.playouts(variant, 12, seed=4, agents=agents, max_plies=80)
    saved = dc.playouts(variant, 12, seed=4, agents=agents, max_plies=80, save=tmp_path / "g.jsonl")
    assert (plain.winner == saved.winner).all() and (plain.plies == saved.plies).all()
    recs = records.read_jsonl(tmp_path / "g.jsonl")
    assert len(recs) == 12
    for i, r in enumerate(recs):
        s = r.state()
        assert s.is_terminal() and s.plies == saved.plies[i]
        w = s.winner()
        expected = w if w is not None else (-2 if s.termination() == "max_plies" else -1)
        assert expected == saved.winner[i]
        assert dc.TERMINATIONS.index(s.termination()) == saved.termination[i]
        assert r.seed == 4 and r.tags["Game"] == str(i) and r.options["max_plies"] == 80
    with pytest.raises(ValueError, match="built-in"):
        dc.playouts("chess", 2, agents=(lambda s: s.legal_actions()[0], "random"), save="x.jsonl")
