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


def test_ctrl_c_interrupts_a_search():
    def interrupt(*_):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            dc.Agent("search").search(dc.State("chess"), nodes=2**40)
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
