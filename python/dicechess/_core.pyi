"""Type stubs for the compiled extension module ``dicechess._core``."""

from collections.abc import Callable, Sequence
from typing import Any, final

import numpy as np
import numpy.typing as npt
from typing_extensions import Self

__all__ = [
    "__version__",
    "CHANCE",
    "RELATIVES",
    "TERMINAL",
    "TERMINATIONS",
    "MAX_BATCH",
    "MAX_THREADS",
    "State",
    "variants",
    "variant_info",
    "num_actions",
    "observation_planes",
    "perft",
    "search_eval_features",
    "search_eval_weights",
    "_state_from_bytes",
    "_pgn_write",
    "_PgnReader",
    "MAX_PGN_GAME_CHARS",
    "_jsonl_write",
    "_jsonl_read_line",
    "_recorded_playouts",
    "_random_playouts",
    "VecEnv",
    "Episode",
    "_episode_from_bytes",
    "AGENT_SPECS",
    "Agent",
    "_agent_spec",
    "_playouts",
    "_playouts_callable",
    "_zero_play",
    "_zero_search",
    "_paired_playouts",
    "_recorded_pairs",
    "_roll_luck",
]

__version__: str
CHANCE: int
"""``current_player()`` at chance nodes (-1)."""
TERMINAL: int
"""``current_player()`` at terminal states (-4)."""
RELATIVES: list[str]
"""Relatives of a registered variant written as its rule options
(``"dice_chess:dice=1"``): played by the conformance suites, no registry row."""
TERMINATIONS: list[str]
"""Termination reason names; a reason's code is its index."""
MAX_BATCH: int
"""The most games one call into Rust plays (``chunk_size`` at most)."""
MAX_THREADS: int
"""The most worker threads a call may ask for."""
MAX_PGN_GAME_CHARS: int
"""The most characters one PGN game may take when read."""

@final
class State:
    """A game state of any variant (OpenSpiel-style API).

    ``State(variant, **options)``: options are ``fen``, ``max_plies``, ``luck``
    (every variant: the probability that a decision is replaced by a uniformly
    random legal one, drawn at explicit chance nodes; docs/rules.md §12) and the
    variant's rule options. Options may also follow the name, as everywhere a
    variant is taken: ``State("chess:luck=0.1")``. Raises ``ValueError`` for an
    unknown variant, an unknown option or a bad value/FEN.
    """

    def __new__(cls, variant: str = "chess", **options: Any) -> Self: ...
    @property
    def variant(self) -> str:
        """The variant's name."""
    @property
    def options(self) -> dict[str, Any]:
        """The options this state was created with (defaults filled in)."""
    @property
    def plies(self) -> int:
        """Player decisions made so far."""
    @property
    def dice(self) -> str | None:
        """Vegas, Dice Chess: the roll the player decides with (``"PN"``,
        ``"B*"``, ``"PNK"``), or None."""
    @property
    def dice_left(self) -> str | None:
        """Three-dice DiceChess: the dice not used yet this turn (``"NK"``),
        or None."""
    @property
    def colors(self) -> list[str] | None:
        """Random Move Number Chess: each player's colour (None before the
        colour choice and for other variants)."""
    @property
    def paused(self) -> list[str] | None:
        """Cubic Checkers: the squares of the paused cubes (``["c3"]``), White's
        first; None for other variants."""
    @property
    def moves_left(self) -> int | None:
        """Random Move Number Chess: moves left in the turn (None for other variants)."""
    @property
    def throw_records(self) -> list[list[int]] | None:
        """Random Move Number Chess: each player's throws (None for other variants)."""
    def current_player(self) -> int:
        """Player to decide (0 or 1), ``CHANCE`` (-1) or ``TERMINAL`` (-4)."""
    def is_chance_node(self) -> bool:
        """Whether chance (a dice roll) acts next."""
    def is_terminal(self) -> bool:
        """Whether the game is over."""
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome_action, probability), ...]`` at a chance node, else ``[]``."""
    def legal_actions(self) -> list[int]:
        """Legal action ids (sorted)."""
    def legal_actions_mask(self) -> npt.NDArray[np.bool_]:
        """Boolean mask over the action space (chance outcome ids at chance nodes)."""
    def apply_action(self, action: int) -> None:
        """Applies a move, pass, rotation or chance outcome by id."""
    def action_to_string(self, action: int) -> str:
        """SAN (or ``pass``) at decision nodes, the outcome name at chance nodes."""
    def string_to_action(self, text: str) -> int:
        """Parses SAN, UCI, long algebraic, ``pass``, or an outcome name."""
    def apply_san(self, text: str) -> None:
        """``apply_action(string_to_action(text))``."""
    def returns(self) -> list[float]:
        """``[r0, r1]``: +1 win, -1 loss, 0 draw, truncated or not over."""
    def termination(self) -> str | None:
        """None, or the reason the game ended (a name from ``TERMINATIONS``)."""
    def winner(self) -> int | None:
        """The winning player, or None."""
    def fen(self) -> str:
        """FEN (extended with variant state where needed)."""
    def history(self) -> list[int]:
        """Every action applied since the state was created (replayable)."""
    def status_lines(self) -> list[str]:
        """The status lines of ``str(state)`` (turn or result, dice, stocks, ...)."""
    def num_actions(self) -> int:
        """Number of distinct actions at decision nodes."""
    def max_chance_outcomes(self) -> int:
        """Number of distinct chance outcome ids."""
    def observation_planes(self) -> list[str]:
        """Names of the observation planes."""
    def observation_tensor(self, player: int | None = None) -> npt.NDArray[np.float32]:
        """The observation tensor ``(planes, ranks, files)`` from ``player``'s
        point of view (default: the player to move, or 0 at chance/terminal nodes)."""
    def clone(self) -> State:
        """An independent copy of the state."""
    def copy(self) -> State:
        """An independent copy of the state (= ``clone()``)."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def key(self) -> int:
        """A 64-bit key of the full state, the same on every run and platform
        (equal states, equal keys): for tables and files."""
    def __copy__(self) -> State: ...
    def __deepcopy__(self, _memo: Any = None) -> State: ...
    def __reduce__(self) -> tuple[Any, tuple[bytes]]: ...
    def _repr_svg_(self) -> str:
        """Jupyter display: an SVG board drawn by ``dicechess.render.svg``."""

def _state_from_bytes(data: bytes) -> State: ...
def _pgn_write(
    variant: str,
    options_json: str,
    actions: list[int],
    tags: list[tuple[str, str]],
    seed: int | None = None,
) -> str: ...

@final
class _PgnReader:
    """Games ``skip ..`` (at most ``take``) of PGN text or a text file, one
    record tuple at a time."""

    def __new__(cls, source: str | Any, skip: int = 0, take: int | None = None) -> Self: ...
    def __iter__(self) -> _PgnReader: ...
    def __next__(self) -> tuple[str, str, list[int], list[tuple[str, str]], int | None]: ...

def _jsonl_write(
    variant: str,
    options_json: str,
    actions: list[int],
    tags: list[tuple[str, str]],
    seed: int | None = None,
) -> str: ...
def _jsonl_read_line(
    line: str, number: int
) -> tuple[str, str, list[int], list[tuple[str, str]], int | None]: ...
def _recorded_playouts(
    variant: str,
    agents: tuple[str, str],
    seed: int,
    start: int,
    count: int,
    threads: int | None = None,
    **options: Any,
) -> list[list[int]]: ...
def search_eval_features(state: State) -> tuple[npt.NDArray[np.float64], float]:
    """``(features, offset)`` of a non-terminal state: ``features @ weights + offset``
    is the search's static value for White in centipawns (Texel tuning)."""

def search_eval_weights() -> tuple[list[str], list[float]]:
    """The search evaluation's weight names (feature order) and default weights."""

def variants() -> list[str]:
    """The names of the variants."""

def variant_info() -> list[dict[str, Any]]:
    """One dict per variant, in the order of ``variants()``: its registry row
    (``src/variants/registry.rs``: name, title, gym, gym_id, board_size, chance,
    twin) and the facts of its default game (observation_shape, num_actions,
    max_chance_outcomes, pieces). ``dicechess.variant_info()`` wraps it."""

def num_actions(variant: str, **options: Any) -> int:
    """Number of distinct actions at decision nodes of ``variant`` (with options)."""

def observation_planes(variant: str, **options: Any) -> list[str]:
    """Names of the observation planes of ``variant`` (with options), in order."""

def perft(variant: str, depth: int, fen: str | None = None, **options: Any) -> int:
    """Perft: leaf nodes at ``depth``."""

def _random_playouts(
    variant: str, seed: int, start: int, count: int, threads: int | None = None, **options: Any
) -> dict[str, npt.NDArray[Any]]: ...

_StepOut = tuple[
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.float32],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    npt.NDArray[np.int8],
]

#: A callable opponent of ``VecEnv``: float32 observations ``(k, planes,
#: ranks, files)`` and bool masks ``(k, num_actions)`` of the ``k`` envs where
#: it must move -> ``k`` integer actions.
_VecOpponent = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], Any]

@final
class VecEnv:
    """``num_envs`` games of one variant stepped together in Rust (GIL released).

    Outputs ``(obs, mask, rewards, terminated, truncated, current_player)`` are
    preallocated arrays rewritten in place by every call: obs
    ``(num_envs, planes, ranks, files)`` float32, mask ``(num_envs, num_actions)``
    bool, rewards ``(num_envs, 2)`` (self-play, ``opponent=None``) or
    ``(num_envs,)`` (player 0's, with an opponent) float32, the flags
    bool, current_player int8 (-4 at terminal states). Chance nodes and the
    opponent are resolved inside; episode ``k`` of env ``i`` uses
    ``game_rng(seed + i, k)`` (the single env's episode ``k`` with seed
    ``seed + i``: one episode loop, ``Episode``). ``autoreset``:
    ``"next_step"`` (gymnasium ``NEXT_STEP``, the default: the step after an
    episode ends ignores that env's action and starts a new episode, reward
    0; a finished env's mask marks only action 0, the no-op, so no mask is
    all false) or ``"same_step"`` (gymnasium ``SAME_STEP``: the step that
    ends a game reports its reward and flags with the next game's first
    observation; the final observation is in ``final_observation``).
    ``termination`` holds the ending game's reason code. A call made while
    another thread steps the env (``close`` too) raises ``ValueError``
    ("busy in another thread"). ``num_envs`` is 1 to 65536. ``opponent``: None
    (self-play) or an agent spec (``AGENT_SPECS``: ``"random"``, ``"greedy"``,
    ``"expectimax:depth=N"``, ``"mcts:sims=N,..."``) playing player 1 inside,
    one agent per env drawing from the episode's generator; an invalid spec
    raises ``ValueError`` listing the valid ones. ``threads``: 1 steps on the
    calling thread, N on an own pool of N threads, None on all cores where
    that pays (256 or more envs, or any number with a searching opponent)
    and on the calling thread otherwise; results never depend on it.

    Self-play opponents: ``opponent`` may be a callable ``(obs, mask) ->
    actions``, called once per step (again in the rare step where a roll
    hands the opponent a second decision) with player 1's observations and
    masks of only the envs where it must move; it returns one action per row
    (an integer array-like of shape ``(k,)``). A wrong shape or an illegal
    action raises ``ValueError`` (a non-integer result ``TypeError``), and
    an exception in the callable propagates; every env and output array is
    then as before the call. Or a list of specs and callables: a pool, one
    member drawn per env and episode (``opponent_weights``: relative
    weights, default equal) from the env's own generator (reproducible for
    the seed, whatever the thread count; the dice are the same whichever
    member is drawn). A pool's built-in agents are built in an env when
    first drawn there and kept; the memory check counts one per member an
    env can draw (a weight above 0).
    """

    def __new__(
        cls,
        variant: str,
        num_envs: int,
        seed: int = 0,
        opponent: str | _VecOpponent | Sequence[str | _VecOpponent] | None = None,
        threads: int | None = None,
        autoreset: str | None = "next_step",
        opponent_weights: Sequence[float] | None = None,
        **options: Any,
    ) -> Self: ...
    @property
    def num_envs(self) -> int:
        """Number of games."""
    @property
    def autoreset(self) -> str:
        """``"next_step"`` or ``"same_step"``."""
    @property
    def env_seeds(self) -> list[int]:
        """Each env's seed (episode ``k`` of env ``i`` uses ``game_rng(env_seeds[i], k)``)."""
    @property
    def termination(self) -> npt.NDArray[np.int8]:
        """int8 ``(num_envs,)``, rewritten by every call: the code (index in
        ``TERMINATIONS``) of the game that ended on this call, else -1."""
    @property
    def final_observation(self) -> npt.NDArray[np.float32]:
        """``"same_step"``: float32 ``(num_envs, planes, ranks, files)``, row
        ``i`` env ``i``'s final observation where its game ended on this step
        (other rows stale); ``"next_step"``: an empty ``(0, ...)`` array."""
    @property
    def num_actions(self) -> int:
        """Length of a mask (decision action ids)."""
    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """``(planes, ranks, files)`` of one observation."""
    @property
    def opponent(self) -> str | _VecOpponent | list[str | _VecOpponent] | None:
        """The opponent: its canonical agent spec, the callable, a list of
        these (a pool), or None in self-play."""
    @property
    def opponent_weights(self) -> list[float] | None:
        """The pool members' weights (``[1.0]`` for one opponent), or None in self-play."""
    @property
    def opponent_index(self) -> npt.NDArray[np.int64]:
        """int64 ``(num_envs,)``, a new array: the pool member each env plays
        in its current episode (0 for one opponent)."""
    @property
    def last_opponent_index(self) -> npt.NDArray[np.int64]:
        """int64 ``(num_envs,)``, a new array: the pool member of each env's
        previous episode (with ``"same_step"``, of the game that ended on the
        last step)."""
    @property
    def seed(self) -> int:
        """The run seed (env 0's seed after a reset with a list)."""
    def reset(self, seed: int | Sequence[int] | None = None) -> _StepOut:
        """Starts episode 0 of every env: ``seed`` None (each env restarts
        from its seed), an int (env ``i`` gets ``seed + i``) or one int per env."""
    def step(self, actions: npt.NDArray[np.integer[Any]]) -> _StepOut:
        """Applies one action per env; all are validated before any is applied."""
    def history(self, i: int) -> list[int]:
        """Actions of env ``i``'s current episode, replayable via ``State.apply_action``."""
    def episode(self, i: int) -> int:
        """Env ``i``'s episode number since the last reset."""
    def fen(self, i: int) -> str:
        """FEN of env ``i``'s current game."""
    def close(self) -> None:
        """Releases the games; any later ``reset`` or ``step`` raises ValueError."""
    @property
    def closed(self) -> bool:
        """Whether ``close`` was called."""
    def __len__(self) -> int: ...

@final
class Episode:
    """One episode of one game stepped in Rust: the one episode loop behind
    ``dicechess.gym``, ``dicechess.pettingzoo`` and each env of ``VecEnv``.

    ``agent_player``: 0, 1, ``"random"`` (drawn at each reset) or None
    (self-play: every decision is the caller's). ``opponent``: an agent spec
    played inside, or None (the other side's decisions are the caller's).
    ``illegal_action``: ``"raise"`` or ``"lose"`` (the offender gets -1).
    """

    def __new__(
        cls,
        variant: str = "chess",
        agent_player: int | str | None = None,
        opponent: str | None = None,
        illegal_action: str = "raise",
        **options: Any,
    ) -> Self: ...
    def reset(self, seed: int, index: int = 0, options: dict[str, Any] | None = None) -> None:
        """Starts episode ``index`` of ``seed`` (randomness from ``game_rng(seed, index)``)."""
    def step(self, action: int) -> None:
        """Plays the external decider's action, then chance and the built-in opponent."""
    @property
    def decider(self) -> int | None:
        """The player who decides from outside now (None when over)."""
    @property
    def agent_player(self) -> int | None:
        """The learner's player this episode (None in self-play)."""
    @property
    def over(self) -> bool: ...
    @property
    def terminated(self) -> bool: ...
    @property
    def truncated(self) -> bool: ...
    @property
    def termination(self) -> str | None:
        """Why the episode ended (a termination name or ``"illegal_action"``)."""
    def returns(self) -> tuple[float, float]:
        """``(r0, r1)``, zeros until the end."""
    @property
    def illegal_action(self) -> int:
        """The illegal action that ended the episode, or -1."""
    @property
    def rolls(self) -> list[int]:
        """Chance outcomes since the learner's last decision."""
    @property
    def opponent_actions(self) -> list[int]:
        """The opponent's decisions since the learner's last decision."""
    @property
    def history(self) -> list[int]:
        """Every action of this episode."""
    @property
    def seed(self) -> int: ...
    @property
    def index(self) -> int:
        """The episode's number within its seed."""
    def status(self) -> tuple[str, int, str]:
        """``(dice or "", plies, fen)``."""
    @property
    def num_actions(self) -> int: ...
    def observation(self, player: int | None = None) -> npt.NDArray[np.float32]:
        """The observation tensor from ``player``'s view (default: the learner's)."""
    def mask(self, player: int | None = None) -> npt.NDArray[np.bool_]:
        """The legal-action mask when ``player`` (any, for None) decides now."""
    def state(self) -> State:
        """A copy of the current game."""

def _episode_from_bytes(data: bytes) -> Episode: ...

#: Every valid agent spec form (for messages).
AGENT_SPECS: str

@final
class Agent:
    """A Rust agent: ``Agent(spec, seed=0)``.

    ``spec``: ``"random"``, ``"greedy"`` (one decision deep, exact expectation
    over the dice that follow), ``"expectimax:depth=N"`` (*-minimax: alpha-beta,
    Star1 at chance nodes, transposition table), ``"mcts:sims=N[,nodes=N]
    [,ms=T][,c=X][,select=puct|uct][,leaf=qsearch|static|material][,chance=stratified|sample]
    [,rollout=none|random|greedy][,rollout_plies=M]"`` (PUCT with priors from
    the evaluation, chance nodes expanded with their exact distribution,
    leaves valued by the search's quiescence mapped to an expected score;
    at least one budget of ``sims``/``nodes``/``ms``, the first reached
    stops), ``"search[:nodes=N][,ms=T][,depth=D][,option=value...]"``
    (iterative-deepening alpha-beta with quiescence, transposition table and
    Star1/Star2 at chance nodes; no budget means ``nodes=20000``; options
    ``tt_mb``, ``tt``, ``pvs``, ``aspiration``, ``lmr``, ``nmp``, ``star2``,
    ``check_ext``, ``killers``, ``history``, ``qsearch`` (0/1),
    ``qchance=expect|stop``, ``sample=K``). Bad specs raise ValueError listing
    the valid ones. Decisions are reproducible: the agent's generator is
    seeded with ``seed`` (a node budget is exact, so the same seed and budget
    give the same move on any machine; ``ms`` budgets are for play).
    """

    def __new__(cls, spec: str, seed: int = 0) -> Self: ...
    @property
    def spec(self) -> str:
        """The canonical spec string."""
    @property
    def seed(self) -> int:
        """The seed the agent was created with."""
    def select(self, state: State) -> int:
        """The chosen action id at a decision node (GIL released); ValueError elsewhere."""
    def policy(self, state: State) -> list[tuple[int, float]]:
        """``[(action, probability)]`` over the legal actions: uniform (random),
        one-hot on the chosen action (greedy, expectimax), root visit
        distribution (mcts). ValueError at chance and terminal nodes."""
    def value(self, state: State, depth: int | None = None) -> float:
        """The expectimax value of ``state`` for player 0 in ``[-1, 1]`` (GIL
        released), searched ``depth`` decisions deep (1..8; default: the agent's
        own depth, 1 for ``greedy``). Exact at terminal states (1 player 0 won,
        -1 lost, 0 otherwise); at chance nodes the exact expectation over the
        outcomes. No randomness is used. Only ``greedy`` and
        ``expectimax:depth=N`` agents value states (ValueError otherwise)."""
    def search(
        self,
        state: State,
        nodes: int | None = None,
        ms: int | None = None,
        depth: int | None = None,
        info: Callable[[dict[str, Any]], object] | None = None,
    ) -> dict[str, Any]:
        """One search of a ``search`` agent at a decision node (GIL released;
        Ctrl-C raises KeyboardInterrupt). Returns ``{"action", "move" (SAN),
        "value" (centipawns for the deciding player; a win ``n`` plies ahead is
        ``100000 - n``), "depth" (deepest completed iteration), "nodes", "pv"
        (SAN list), "pv_actions", "stopped"}``. ``nodes``/``ms``/``depth``
        replace the spec's budgets when any is given. ``info(dict)`` is called
        after each completed iteration with the result so far (the keys
        above but ``"stopped"``, plus ``"elapsed"`` seconds; an exception it
        raises stops the search and propagates). ValueError for other
        agents, bad budgets, chance nodes (see :meth:`search_rolls`) and
        terminal nodes."""
    def search_rolls(
        self,
        state: State,
        nodes: int | None = None,
        ms: int | None = None,
        depth: int | None = None,
        progress: bool | Callable[[int, int], object] | None = None,
    ) -> dict[str, Any]:
        """The analysis of a chance node (before a roll) by a ``search``
        agent: every roll searched with the budgets given (in full for each
        roll; GIL released, Ctrl-C raises KeyboardInterrupt) and the
        expectation over the rolls. Returns ``{"player" (the roller, whom
        the values are for), "value" (the expectation on the variant's
        utility scale, centipawns), "nodes", "stopped", "rolls"}``, where
        ``rolls`` holds one dict per outcome: ``"outcome"`` (action id),
        ``"roll"`` (its name), ``"probability"``, ``"value"``, and the
        roll's search as in :meth:`search` (``None`` for ``"action"``,
        ``"move"`` and ``"depth"`` where no decision follows the roll).
        ``progress``: True shows a tqdm bar (Jupyter and terminals); a
        callable ``progress(done, total)`` is called after each roll (an
        exception it raises stops the analysis and propagates). ValueError for other
        agents, bad budgets, decision and terminal nodes."""
    def new_game(self) -> None:
        """Tells the agent a new game starts: a ``search`` agent with ``keep``
        no longer uses what its table stored in the previous game (a no-op for
        other agents)."""

def _agent_spec(spec: str) -> str:
    """The canonical form of an agent spec (ValueError listing the valid specs)."""

def _playouts(
    variant: str,
    agents: tuple[str, str],
    seed: int,
    start: int,
    count: int,
    threads: int | None = None,
    **options: Any,
) -> dict[str, npt.NDArray[Any]]:
    """Games ``start .. start+count`` between two agent specs (GIL released)."""

def _paired_playouts(
    variant: str,
    agents: tuple[str, str],
    seed: int,
    start: int,
    count: int,
    threads: int | None = None,
    opening_plies: int = 0,
    **options: Any,
) -> dict[str, dict[str, npt.NDArray[Any]]]:
    """Pairs ``start .. start+count`` of games on common dice, seats swapped,
    each opening with ``opening_plies`` random decisions (GIL released):
    ``{"a_first": arrays, "b_first": arrays}``."""

def _recorded_pairs(
    variant: str,
    agents: tuple[str, str],
    seed: int,
    start: int,
    count: int,
    threads: int | None = None,
    opening_plies: int = 0,
    **options: Any,
) -> list[list[list[int]]]:
    """The actions of the games of ``_paired_playouts`` pairs: ``[A first, B first]`` per pair."""

def _playouts_callable(
    variant: str,
    agents: tuple[str | Callable[[State], int], str | Callable[[State], int]],
    seed: int,
    start: int,
    count: int,
    **options: Any,
) -> dict[str, npt.NDArray[Any]]:
    """Games ``start .. start+count`` where an agent may be a Python callable
    ``state -> action`` (sequential, GIL held)."""

#: A network for the search: ``evaluate(obs[B, C, H, W] float32, mask[B, A] bool)
#: -> (logits[B, A], value[B])``, float32 or float64 numpy arrays.
_Evaluate = Callable[
    [npt.NDArray[np.float32], npt.NDArray[np.bool_]],
    tuple[npt.NDArray[Any], npt.NDArray[Any]],
]

def _zero_play(
    variant: str,
    evaluators: list[_Evaluate],
    seats: tuple[int | str, int | str],
    games: int,
    *,
    start: int = 0,
    parallel: int = 64,
    seed: int = 0,
    sims: int = 200,
    c_puct: float = 1.25,
    leaves_per_tree: int = 1,
    dirichlet_alpha: float = 0.0,
    dirichlet_frac: float = 0.25,
    gumbel_m: int = 0,
    c_visit: float = 50.0,
    c_scale: float = 1.0,
    temperature_plies: int = 0,
    opening_plies: int = 0,
    paired: bool = False,
    record: bool = False,
    progress: Callable[[int, int], object] | None = None,
    options: dict[str, Any] | None = None,
    net_sims: list[int] | None = None,
    value_chance: int | None = None,
) -> dict[str, Any]:
    """Games ``start .. start+games`` with network-guided search in the
    seats given by an evaluator index (or a built-in agent spec); see
    :mod:`dicechess.zero`. Returns ``obs``, ``policy``, ``z``,
    ``root_value``, ``player``, ``game`` (one row per network decision when
    ``record``), ``games`` (per finished game: ``index``,
    ``seat_of_player0``, ``return0``, ``winner``, ``plies``,
    ``chance_events``, ``termination``; with ``value_chance=k`` also
    ``luck_sum``, player 0's luck valued by evaluator ``k``, and
    ``n_rolls``), ``leaves``, ``batches``,
    ``interrupted``, ``seconds``, ``eval_seconds``."""

def _zero_search(
    state: State,
    evaluate: _Evaluate,
    *,
    seed: int = 0,
    sims: int = 200,
    c_puct: float = 1.25,
    leaves_per_tree: int = 8,
    gumbel_m: int = 0,
    c_visit: float = 50.0,
    c_scale: float = 1.0,
    temperature: float = 0.0,
) -> tuple[int, float, npt.NDArray[np.uint32], npt.NDArray[np.float64]]:
    """One network-guided search from a decision node: ``(action, value for
    the deciding player, legal actions, improved policy)``."""

def _roll_luck(
    variant: str,
    agents: tuple[str, str],
    eval_depth: int,
    seed: int,
    start: int,
    count: int,
    threads: int | None = None,
    per_roll: bool = False,
    evaluator: str | None = None,
    **options: Any,
) -> dict[str, npt.NDArray[Any]]:
    """Games ``start .. start+count`` between two agent specs (those of
    ``_playouts``) with the luck of every roll for player 0, valued with
    ``expectimax:depth=eval_depth`` (1..4), or with the agent spec
    ``evaluator`` when given (``greedy``, ``expectimax:depth=D`` or a
    ``search:`` spec with a node or depth budget), GIL released. Per-game arrays
    ``n_rolls``, ``luck_sum``, ``abs_luck_sum``, ``max_abs_luck``; with
    ``per_roll`` also ``roll_game``, ``roll_ply``, ``roll_player``,
    ``roll_luck``, ``roll_v_expected``, ``roll_v_actual``."""
