"""Every variant of the registry (``src/variants/registry.rs``) is complete: a gym
id, an observation of the registered shape, a render, a rules section in
docs/rules.md and a row in the README's variant table. A new row that misses
one of them fails here."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import dicechess as dc
from dicechess import render
from dicechess.study import CONTROLS
from dicechess.study.calibration import twin_of

ROOT = Path(__file__).resolve().parents[2]
INFO = dc.variant_info()


def test_info_lists_every_variant_in_order():
    assert list(INFO) == dc.variants()
    assert all(name == v.name for name, v in INFO.items())
    # Python's tables are built from the rows, not restated.
    assert CONTROLS == tuple(n for n in dc.variants() if not INFO[n].chance)
    assert {twin_of(n) for n in dc.variants()} <= set(CONTROLS)
    assert twin_of("metamorph:max_plies=50") == INFO["metamorph"].twin == "gardner"
    with pytest.raises(ValueError, match="unknown variant 'nope'"):
        twin_of("nope:luck=0.1")


def test_core_rows_are_plain_dicts():
    rows = dc._core.variant_info()
    assert [r["name"] for r in rows] == dc.variants()
    assert rows[0]["gym_id"] == f"dicechess/{rows[0]['gym']}-v0"


@pytest.mark.parametrize("variant", dc.variants())
def test_gym_id_registered(variant):
    gymnasium = pytest.importorskip("gymnasium")
    import dicechess.gym as dgym

    v = INFO[variant]
    assert v.gym_id == f"dicechess/{v.gym}-v0"
    assert dgym.ENV_IDS[v.gym] == variant
    assert gymnasium.spec(v.gym_id).kwargs["variant"] == variant


@pytest.mark.parametrize("variant", dc.variants())
def test_observation_and_actions(variant):
    v = INFO[variant]
    s = dc.State(variant)
    planes, ranks, files = v.observation_shape
    assert (ranks, files) == (v.board_size, v.board_size)
    assert s.observation_tensor().shape == v.observation_shape
    assert planes == len(dc.observation_planes(variant))
    assert s.num_actions() == v.num_actions == dc.num_actions(variant)
    assert s.max_chance_outcomes() == v.max_chance_outcomes
    assert (v.max_chance_outcomes > 0) == v.chance


@pytest.mark.parametrize("variant", dc.variants())
def test_render(variant):
    s = dc.State(variant)
    root = ET.fromstring(render.svg(s))
    assert sum(e.get("class") == "piece" for e in root.iter()) == INFO[variant].pieces
    assert len(render.board(s)) == INFO[variant].board_size
    assert str(s).strip()


def _headings(path: Path, pattern: str) -> list[str]:
    return re.findall(pattern, path.read_text(encoding="utf-8"), flags=re.M)


@pytest.mark.parametrize("variant", dc.variants())
def test_rules_section(variant):
    # "## 2. Fluky Chess (Ilya Yudovski, 2023)": the row's title starts a numbered heading.
    titles = _headings(ROOT / "docs" / "rules.md", r"^## \d+\. (.*)$")
    title = INFO[variant].title
    assert any(t == title or t.startswith(title + " ") for t in titles), (title, titles)


@pytest.mark.parametrize("variant", dc.variants())
def test_readme_table_row(variant):
    # "| `fluky` | 5x5 | a die after most moves | ... |": board and chance as in the row.
    rows = dict(
        (name, (board, chance))
        for name, board, chance in _headings(
            ROOT / "README.md", r"^\| `([a-z0-9_]+)` \| (\d+x\d+) \| ([^|]+?) \|"
        )
    )
    v = INFO[variant]
    assert variant in rows, "no line in the README's variant table"
    board, chance = rows[variant]
    assert board == f"{v.board_size}x{v.board_size}"
    assert (chance != "none") == v.chance


@pytest.mark.parametrize("spec", dc._core.RELATIVES)
def test_relatives_play_through_python_like_their_base(spec):
    """A relative (its base's rule options, no row of its own) has the base's
    observation and actions, renders, plays through the batch runner and the
    gym env, and reads back its FEN and pickle with its options."""
    import pickle

    base, opts = spec.split(":", 1)
    v = INFO[base]
    s = dc.State(spec)
    for k, val in (kv.split("=", 1) for kv in opts.split(",")):
        assert str(s.options[k]) == val
    assert s.observation_tensor().shape == v.observation_shape
    assert s.num_actions() == v.num_actions
    assert len(render.board(s)) == v.board_size
    r = dc.playouts(spec, 20, seed=3, progress=False)
    assert len(r) == 20 and (r.plies > 0).all()
    again = pickle.loads(pickle.dumps(s))
    assert again.options == s.options and again.fen() == s.fen()
    gymnasium = pytest.importorskip("gymnasium")
    import dicechess.gym  # noqa: F401

    env = gymnasium.make(v.gym_id, **{k: s.options[k] for k in ("dice", "no_move", "doubles")})
    obs, _ = env.reset(seed=0)
    planes, ranks, files = v.observation_shape
    assert obs["observation"].size == planes * ranks * files
