"""``benches/instructions.py``: what it reads from callgrind and the bench,
and that it steps aside without valgrind."""

from types import ModuleType

import pytest


@pytest.fixture
def mod(load_script) -> ModuleType:
    return load_script("instructions", "benches")


def test_reads_callgrinds_count(mod):
    err = "==9129== Events    : Ir\n==9129== Collected : 4639821930\n==9129== \n"
    assert mod.collected(err) == 4639821930
    with pytest.raises(ValueError, match="Collected"):
        mod.collected("==1== valgrind: no such file\n")


def test_reads_the_nodes_of_each_row(mod):
    err = "==1== Callgrind\nnodes searched: middlegames 1000000\nnodes searched: fluky 1200000\n"
    assert mod.nodes_searched(err) == {"middlegames": 1000000, "fluky": 1200000}
    assert mod.nodes_searched("| chess middlegames | 98565 | 11.6 |\n") == {}


def test_without_valgrind_it_says_so(mod, monkeypatch, capsys):
    monkeypatch.setattr(mod.shutil, "which", lambda _: None)
    assert mod.main([]) == 0
    assert "valgrind is not installed" in capsys.readouterr().out
