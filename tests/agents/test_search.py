"""The ``search`` agent from Python: specs, ``Agent.search``, determinism,
use in playouts and arenas, the ``analyse`` command and Ctrl-C."""

import signal

import pytest

import dicechess as dc
from dicechess import _core
from dicechess.cli import main

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"


def test_search_finds_mate_and_reports_the_line():
    s = dc.State("chess", fen=MATE_IN_ONE)
    r = dc.Agent("search:depth=3").search(s)
    assert r["move"] == "Ra8#"
    assert r["action"] == s.string_to_action("Ra8#")
    assert r["value"] == 100000 - 1
    assert r["pv"][0] == "Ra8#" and r["pv_actions"][0] == r["action"]
    assert r["depth"] == 3 and r["nodes"] > 0 and r["stopped"] is False


def test_budgets_override_the_spec_and_node_budget_is_exact():
    s = dc.State("chess")
    a = dc.Agent("search:depth=2")
    r = a.search(s, nodes=3000)
    assert r["nodes"] == 3000 and r["stopped"] is True
    assert a.search(s, depth=1)["depth"] == 1


def test_node_budget_is_deterministic():
    s = dc.State("vegas")
    s.apply_action(s.chance_outcomes()[0][0])
    a, b = dc.Agent("search:nodes=4000", seed=7), dc.Agent("search:nodes=4000", seed=7)
    assert a.search(s) == b.search(s)
    assert a.select(s) == b.select(s)


@pytest.mark.parametrize(
    "spec,word",
    [
        ("search:nodes=-1", "nodes must be an integer"),
        ("search:ms=abc", "ms must be an integer"),
        ("search:colour=white", "unknown parameter"),
    ],
)
def test_bad_specs_list_the_valid_keys(spec, word):
    with pytest.raises(ValueError, match=word) as e:
        dc.Agent(spec)
    assert "nodes, ms, depth, tt_mb" in str(e.value)


def test_search_rejects_bad_calls():
    s = dc.State("chess")
    with pytest.raises(ValueError, match="needs a"):
        dc.Agent("greedy").search(s)
    with pytest.raises(ValueError, match="nodes must be from 1"):
        dc.Agent("search").search(s, nodes=0)
    with pytest.raises(ValueError, match="ms must be from 1 to 86400000, or None, got -5"):
        dc.Agent("search").search(s, ms=-5)
    with pytest.raises(ValueError, match="nodes must be from 1 to 1099511627776"):
        dc.Agent("search").search(s, nodes=10**30)
    for name, bad in [("nodes", 1.5), ("ms", "100"), ("depth", True)]:
        with pytest.raises(TypeError, match=f"{name} must be an int .*, got {type(bad).__name__}"):
            dc.Agent("search").search(s, **{name: bad})
    v = dc.State("vegas")
    with pytest.raises(ValueError, match="chance node"):
        dc.Agent("search").search(v)


@pytest.mark.parametrize("variant", _core.variants())
def test_search_agent_plays_whole_games(variant):
    r = dc.playouts(variant, 2, seed=3, agents=("search:nodes=300", "random"), threads=1)
    assert len(r) == 2
    again = dc.playouts(variant, 2, seed=3, agents=("search:nodes=300", "random"), threads=2)
    assert (r.winner == again.winner).all() and (r.plies == again.plies).all()


def test_arena_with_search():
    res = dc.arena("fluky", ["search:nodes=200", "greedy"], games_per_pair=2, seed=1, threads=1)
    assert res.games == 2


def test_analyse_command(capsys):
    assert main(["analyse", "chess", "--fen", MATE_IN_ONE, "--depth", "3"]) == 0
    out = capsys.readouterr().out
    assert "best Ra8#" in out and "pv Ra8#" in out
    assert main(["analyse", "chess", "--fen", "not a fen", "--depth", "2"]) == 2


@pytest.mark.parametrize("variant,method", [("chess", "search"), ("dice_chess3", "search_rolls")])
def test_ctrl_c_interrupts_a_search(variant, method):
    def interrupt(*_):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            getattr(dc.Agent("search"), method)(dc.State(variant), nodes=2**40)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_keep_reuses_the_games_table_until_new_game():
    s = dc.State("chess")
    # Searches without `keep`, from the same generator (ties are broken
    # with it, so the n-th search of either agent draws the same numbers).
    plain = dc.Agent("search:depth=5,keep=0", seed=1)
    fresh = [plain.search(s) for _ in range(3)]
    # Chess keeps by default.
    for spec in ["search:depth=5,keep=1", "search:depth=5"]:
        a = dc.Agent(spec, seed=1)
        assert a.search(s) == fresh[0]
        again = a.search(s)
        assert again["depth"] == 5 and again["nodes"] < fresh[1]["nodes"]
        a.new_game()
        assert a.search(s) == fresh[2]
    dc.Agent("random").new_game()  # a no-op for other agents


# A white rook on e1 faces the black king on e8: in three-dice DiceChess every
# roll with an R (1 - (5/6)**3 = 91/216 of them) takes the king at once.
ROOK_FACES_KING = "4k3/8/8/8/8/8/8/K3R3 w - - 0 1 - -"


def test_search_rolls_values_every_roll_and_their_expectation():
    s = dc.State("dice_chess3", fen=ROOK_FACES_KING)
    before = s.fen()
    r = dc.Agent("search").search_rolls(s, nodes=3000)
    assert s.fen() == before  # the state is not rolled
    assert r["player"] == 0 and r["stopped"] is False
    names = [s.action_to_string(a) for a, _ in s.chance_outcomes()]
    assert [x["roll"] for x in r["rolls"]] == names
    assert sum(x["probability"] for x in r["rolls"]) == pytest.approx(1.0)
    wins = [x for x in r["rolls"] if x["value"] > 99000]
    assert {x["roll"] for x in wins} == {n for n in names if "R" in n}
    assert sum(x["probability"] for x in wins) == pytest.approx(91 / 216)
    for x in wins:
        assert x["move"] == "Rxe8" and x["pv"][0] == "Rxe8"
        assert x["action"] is not None and x["depth"] >= 1
    assert r["nodes"] == sum(x["nodes"] for x in r["rolls"])
    # The expectation is a mean on the utility scale: between the rolls'
    # values, above a draw, below a certain win.
    assert 0 < r["value"] < 99000
    # Each roll's search is the one Agent.search makes after that roll.
    rolled = s.clone()
    rolled.apply_action(s.string_to_action("PRK"))
    one = dc.Agent("search").search(rolled, nodes=3000)
    assert one["move"] == "Rxe8" and one["value"] == next(
        x["value"] for x in r["rolls"] if x["roll"] == "PRK"
    )


def test_search_rolls_is_reproducible_and_reports_progress():
    s = dc.State("dice_chess")
    seen = []
    a = dc.Agent("search:nodes=500", seed=3).search_rolls(
        s, progress=lambda done, total: seen.append((done, total))
    )
    b = dc.Agent("search:nodes=500", seed=3).search_rolls(s)
    assert a == b
    assert seen == [(i, 21) for i in range(1, 22)]
    # A tqdm bar (on stderr) or none: the same analysis.
    for shown in (True, False):
        assert dc.Agent("search:nodes=500", seed=3).search_rolls(s, progress=shown) == a
    # Rolls that move nothing at the start pass the turn: no decision follows,
    # and the value is the analysis of Black's roll after it.
    passed = [x for x in a["rolls"] if x["move"] is None]
    assert {x["roll"] for x in passed} == {"BR", "BQ", "BK", "RQ", "RK", "QK"}
    assert all(x["nodes"] > 0 and x["depth"] is None for x in passed)


def test_search_rolls_rejects_bad_calls():
    chess = dc.State("chess")
    with pytest.raises(ValueError, match="needs a chance node"):
        dc.Agent("search").search_rolls(chess)
    s = dc.State("dice_chess3")
    with pytest.raises(ValueError, match="needs a"):
        dc.Agent("greedy").search_rolls(s)
    with pytest.raises(ValueError, match="depth must be from 1"):
        dc.Agent("search").search_rolls(s, depth=0)
    with pytest.raises(TypeError, match="progress must be True, False, None or a callable"):
        dc.Agent("search").search_rolls(s, progress=3)
    with pytest.raises(ValueError, match="search_rolls"):
        dc.Agent("search").search(s)
    over = dc.State("chess", fen="R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1")
    with pytest.raises(ValueError, match="the game is over"):
        dc.Agent("search").search_rolls(over)
    assert s.fen() == dc.State("dice_chess3").fen()  # no call changed the state

    def fail(done, total):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        dc.Agent("search:nodes=200").search_rolls(s, progress=fail)


def test_analyse_command_before_a_roll(capsys):
    argv = ["analyse", "dice_chess3", "--fen", ROOK_FACES_KING, "--nodes", "500"]
    assert main([*argv, "--no-progress"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("before the roll: value +") and "56 rolls" in out[0]
    rows = {line.split()[0]: line.split() for line in out[2:]}
    assert len(rows) == 56
    assert rows["PRK"][2] == "Rxe8" and rows["PPP"][2] != "Rxe8"
    # One roll chosen: an ordinary search after it.
    assert main([*argv, "--roll", "NRK", "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("best Rxe8")
    # A roll that is no outcome, a roll where a player decides, bad budgets.
    assert main([*argv, "--roll", "XYZ"]) == 2
    assert "not an outcome" in capsys.readouterr().err
    assert main(["analyse", "chess", "--roll", "PPP"]) == 2
    assert "--roll: chess has no dice" in capsys.readouterr().err
    mid_turn = "4k3/8/8/8/8/8/8/K3R3 w - - 0 1 NRK NRK"
    assert main(["analyse", "dice_chess3", "--fen", mid_turn, "--roll", "PPP"]) == 2
    assert "--roll needs a position before a roll" in capsys.readouterr().err
    mated = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1"
    for extra in ([], ["--roll", "PP"]):
        assert main(["analyse", "chess", "--fen", mated, *extra]) == 2
        assert "the game is over (checkmate)" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["analyse", "chess,fluky"])


def test_search_reports_each_iteration_to_info():
    s = dc.State("chess", fen=MATE_IN_ONE)
    seen = []
    r = dc.Agent("search:depth=4").search(s, info=seen.append)
    assert [x["depth"] for x in seen] == [1, 2, 3, 4]
    assert all(x["move"] == "Ra8#" and x["pv"][0] == "Ra8#" for x in seen)
    assert all(a["nodes"] < b["nodes"] for a, b in zip(seen, seen[1:]))
    assert all(a["elapsed"] <= b["elapsed"] for a, b in zip(seen, seen[1:]))
    assert "stopped" not in seen[-1]
    assert {k: seen[-1][k] for k in ("move", "value", "depth", "nodes", "pv")} == {
        k: r[k] for k in ("move", "value", "depth", "nodes", "pv")
    }
    # Reporting changes nothing: the same search without it.
    assert dc.Agent("search:depth=4").search(s) == r

    def stop(x):
        if x["depth"] == 2:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        dc.Agent("search:depth=6").search(dc.State("chess"), info=stop)
    with pytest.raises(TypeError, match="info must be a callable"):
        dc.Agent("search").search(s, info="print")


def test_analyse_prints_each_iteration(capsys):
    assert main(["analyse", "chess", "--fen", MATE_IN_ONE, "--depth", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines[:3]] == [
        ["depth", "1"],
        ["depth", "2"],
        ["depth", "3"],
    ]
    assert lines[3].startswith("best Ra8#")
    assert main(["analyse", "chess", "--fen", MATE_IN_ONE, "--depth", "3", "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("best Ra8#")
