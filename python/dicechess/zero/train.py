"""The training loop: self-play with the network-guided search, a replay
buffer, value and policy targets (the search's improved policy, the game's
result), evaluation against built-in agents, checkpoints that resume
exactly, and a log of every iteration.

One iteration plays ``games_per_iteration`` self-play games (games
``i * games_per_iteration ...`` of the run's seed, so a resumed run plays
the games the uninterrupted one would), adds their positions to the
buffer, and trains ``train_steps`` minibatches drawn from the buffer by a
generator whose state is saved with the checkpoint. With the same
configuration and thread count, a run resumed from its ``last.pt`` ends
with the same weights, bit for bit, as one that was never stopped.
"""

from __future__ import annotations

import csv
import json
import math
import os
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from ._torch import require_torch
from .checkpoint import atomic_save, model_dict
from .net import Evaluator, NetShape, ZeroNet, default_device
from .play import match

require_torch()

import torch  # noqa: E402

#: The training state's format tag (``last.pt``).
STATE_FORMAT = "dicechess-zero-train/1"
#: Policy entries kept per position in the buffer (the largest, renormalised).
POLICY_TOP = 128


@dataclass
class TrainConfig:
    """Everything that decides a training run (saved in its checkpoints;
    a resumed run must use the same)."""

    variant: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    # The network.
    blocks: int = 6
    channels: int = 64
    # Self-play search.
    sims: int = 64
    gumbel_m: int = 16
    c_puct: float = 1.25
    dirichlet_alpha: float = 0.3
    dirichlet_frac: float = 0.25
    temperature_plies: int = 8
    games_per_iteration: int = 64
    parallel: int = 64
    # Learning.
    buffer_size: int = 60_000
    batch_size: int = 256
    #: Minibatches per iteration (0: enough to see each new position ``reuse`` times).
    train_steps: int = 0
    reuse: float = 4.0
    lr: float = 1e-3
    weight_decay: float = 1e-4
    # Evaluation (0 pairs: none).
    eval_every: int = 5
    eval_pairs: int = 20
    eval_sims: int = 64
    eval_opponents: tuple[str, ...] = ("random", "greedy", "expectimax:depth=2")
    #: Node budgets of the ``search`` rungs also played at each evaluation; the log's
    #: ``ladder_log2_nodes`` is where the network's score crosses 1/2 on them.
    eval_ladder: tuple[int, ...] = (16, 64, 256)

    def __post_init__(self) -> None:
        _core.State(self.variant, **self.options)  # ValueError for a bad variant/options
        for name in ("blocks", "channels", "sims", "games_per_iteration", "parallel", "batch_size"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be a positive int, got {v!r}")
        if self.buffer_size < self.batch_size:
            raise ValueError(
                f"buffer_size ({self.buffer_size}) must be at least batch_size ({self.batch_size})"
            )
        for spec in self.eval_opponents:
            _core._agent_spec(spec)
        self.eval_opponents = tuple(self.eval_opponents)
        ladder = tuple(self.eval_ladder)
        if any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in ladder) or list(
            ladder
        ) != sorted(set(ladder)):
            raise ValueError(
                f"eval_ladder must be increasing positive node budgets, got {self.eval_ladder!r}"
            )
        self.eval_ladder = ladder

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TrainConfig:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})


def ladder_crossing(nodes: tuple[int, ...] | list[int], scores: list[float]) -> float:
    """Where a network's score against ``search:nodes=N`` crosses 1/2, as log2 of N
    (linear in log2 N between the first rung it scores below 1/2 against and the
    rung before). Below the first rung it reads the first rung's log2 minus 1/2, above
    the last one the last rung's plus 1/2 (censored: the rungs' scores say which)."""
    x = [math.log2(n) for n in nodes]
    for i, s in enumerate(scores):
        if s < 0.5:
            if i == 0:
                return x[0] - 0.5
            s0 = scores[i - 1]
            return x[i - 1] + (x[i] - x[i - 1]) * (s0 - 0.5) / (s0 - s)
    return x[-1] + 0.5


class ReplayBuffer:
    """The last ``capacity`` positions: observations (float16), sparse
    policy targets (the :data:`POLICY_TOP` largest entries), value targets."""

    def __init__(self, capacity: int, obs_shape: tuple[int, ...], actions: int) -> None:
        self.capacity, self.actions = capacity, actions
        self.obs = np.zeros((capacity, *obs_shape), np.float16)
        self.pol_idx = np.zeros((capacity, POLICY_TOP), np.int32)
        self.pol_p = np.zeros((capacity, POLICY_TOP), np.float32)
        self.z = np.zeros(capacity, np.float32)
        self.size = 0
        self.next = 0

    def add(self, obs: np.ndarray, policy: np.ndarray, z: np.ndarray) -> None:
        n = len(z)
        if n == 0:
            return
        k = min(POLICY_TOP, policy.shape[1])
        idx = np.argsort(-policy, axis=1, kind="stable")[:, :k]
        p = np.take_along_axis(policy, idx, axis=1)
        p = p / np.maximum(p.sum(axis=1, keepdims=True), 1e-12)
        if n > self.capacity:
            obs, idx, p, z = (
                obs[-self.capacity :],
                idx[-self.capacity :],
                p[-self.capacity :],
                z[-self.capacity :],
            )
            n = self.capacity
        rows = (self.next + np.arange(n)) % self.capacity
        self.obs[rows] = obs
        self.pol_idx[rows, :k] = idx
        self.pol_p[rows, :k] = p
        self.pol_p[rows, k:] = 0.0
        self.z[rows] = z
        self.next = int((self.next + n) % self.capacity)
        self.size = int(min(self.capacity, self.size + n))

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows = rng.integers(0, self.size, n)
        pol = np.zeros((n, self.actions), np.float32)
        # Added, not put: padding entries point at action 0 with weight 0.
        np.add.at(pol, (np.arange(n)[:, None], self.pol_idx[rows]), self.pol_p[rows])
        return self.obs[rows].astype(np.float32), pol, self.z[rows]

    def state(self) -> dict[str, np.ndarray]:
        # The filled rows (all of them once the buffer is full).
        n = self.size
        return {
            "obs": self.obs[:n],
            "pol_idx": self.pol_idx[:n],
            "pol_p": self.pol_p[:n],
            "z": self.z[:n],
            "next": np.array(self.next),
        }

    def load(self, d: Any) -> None:
        n = len(d["z"])
        self.obs[:n], self.pol_idx[:n], self.pol_p[:n], self.z[:n] = (
            d["obs"],
            d["pol_idx"],
            d["pol_p"],
            d["z"],
        )
        self.size, self.next = n, int(d["next"])


@dataclass
class TrainResult:
    """Where a run wrote, how far it got, and its log rows."""

    out: Path
    iterations: int
    log: list[dict[str, Any]]
    interrupted: bool

    @property
    def best(self) -> Path:
        return self.out / "best.pt"


class Trainer:
    """A training run in directory ``out`` (resumed when it holds a
    ``last.pt`` of the same configuration)."""

    def __init__(
        self, config: TrainConfig, out: str | os.PathLike[str], device: str | None = None
    ) -> None:
        self.config = config
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.device = device or default_device()
        shape = NetShape.for_variant(
            config.variant, config.blocks, config.channels, **config.options
        )
        # The initial weights come from the run's seed, without touching
        # the caller's torch generator.
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(config.seed)
            self.net = ZeroNet(shape).to(self.device)
        self.opt = torch.optim.AdamW(
            self.net.parameters(), lr=config.lr, weight_decay=config.weight_decay
        )
        self.buffer = ReplayBuffer(
            config.buffer_size, (shape.planes, shape.ranks, shape.files), shape.actions
        )
        self.rng = np.random.Generator(np.random.PCG64(config.seed))
        self.iteration = 0
        self.log: list[dict[str, Any]] = []
        self.best_score = -math.inf
        if (self.out / "last.pt").is_file():
            self._resume()

    # ------------------------------------------------------------ state

    def _resume(self) -> None:
        d = torch.load(self.out / "last.pt", map_location="cpu", weights_only=False)
        if d.get("format") != STATE_FORMAT:
            raise ValueError(f"{self.out / 'last.pt'} is not a dicechess.zero training state")
        saved = TrainConfig.from_dict(d["config"])
        if asdict(saved) != asdict(self.config):
            diff = {
                k: (v, getattr(self.config, k))
                for k, v in asdict(saved).items()
                if getattr(self.config, k) != v
            }
            raise ValueError(
                f"{self.out} holds a run with another configuration ({diff}); "
                "use a new directory or the same settings"
            )
        self.net.load_state_dict(d["model"]["state_dict"])
        self.opt.load_state_dict(d["optimizer"])
        self.rng.bit_generator.state = d["rng"]
        self.iteration = int(d["iteration"])
        self.log = list(d["log"])
        self.best_score = float(d["best_score"])
        with np.load(self.out / "buffer.npz") as b:
            self.buffer.load(b)

    def _save(self) -> None:
        model = model_dict(
            self.net, self.config.variant, self.config.options, iteration=self.iteration
        )
        tmp = self.out / "buffer.tmp.npz"
        np.savez(tmp, allow_pickle=False, **self.buffer.state())
        os.replace(tmp, self.out / "buffer.npz")
        atomic_save(
            {
                "format": STATE_FORMAT,
                "config": asdict(self.config),
                "model": model,
                "optimizer": self.opt.state_dict(),
                "rng": self.rng.bit_generator.state,
                "iteration": self.iteration,
                "log": self.log,
                "best_score": self.best_score,
            },
            self.out / "last.pt",
        )
        self._write_log()

    def _write_log(self) -> None:
        (self.out / "log.json").write_text(json.dumps(self.log, indent=1))
        keys: list[str] = []
        for row in self.log:
            keys += [k for k in row if k not in keys]
        with open(self.out / "log.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=keys)
            w.writeheader()
            w.writerows(self.log)

    # ------------------------------------------------------------ steps

    def self_play(self, progress: Any = None) -> dict[str, Any]:
        c = self.config
        ev = Evaluator(self.net, self.device)
        r = _core._zero_play(
            c.variant,
            [ev],
            (0, 0),
            c.games_per_iteration,
            start=self.iteration * c.games_per_iteration,
            parallel=c.parallel,
            seed=c.seed,
            sims=c.sims,
            c_puct=c.c_puct,
            gumbel_m=c.gumbel_m,
            dirichlet_alpha=c.dirichlet_alpha if c.gumbel_m == 0 else 0.0,
            dirichlet_frac=c.dirichlet_frac,
            temperature_plies=c.temperature_plies,
            record=True,
            progress=progress,
            options=c.options,
        )
        r["forward_seconds"] = ev.forward_seconds
        return r

    def train_steps(self, new_positions: int) -> dict[str, float]:
        c = self.config
        steps = c.train_steps or max(1, math.ceil(new_positions * c.reuse / c.batch_size))
        self.net.train()
        lp = lv = 0.0
        for _ in range(steps):
            obs, pol, z = self.buffer.sample(self.rng, min(c.batch_size, self.buffer.size))
            x = torch.from_numpy(obs).to(self.device)
            logits, value = self.net(x)
            loss_p = (
                -(torch.from_numpy(pol).to(self.device) * torch.log_softmax(logits, 1))
                .sum(1)
                .mean()
            )
            loss_v = torch.nn.functional.mse_loss(value, torch.from_numpy(z).to(self.device))
            self.opt.zero_grad(set_to_none=True)
            (loss_p + loss_v).backward()
            self.opt.step()
            lp += float(loss_p.detach())
            lv += float(loss_v.detach())
        self.net.eval()
        return {"train_steps": steps, "loss_policy": lp / steps, "loss_value": lv / steps}

    def evaluate(self) -> dict[str, float]:
        c = self.config
        row: dict[str, float] = {}
        ev = Evaluator(self.net, self.device)
        rungs = [f"search:nodes={n}" for n in c.eval_ladder]
        for opp in [*c.eval_opponents, *rungs]:
            m = match(
                ev,
                c.variant,
                opp,
                c.eval_pairs,
                sims=c.eval_sims,
                seed=c.seed + 1_000_003 * (self.iteration + 1),
                options=c.options,
            )
            lo, hi = m.interval
            row[f"score_{opp}"] = m.score
            row[f"score_{opp}_lo"] = lo
            row[f"score_{opp}_hi"] = hi
        if rungs:
            row["ladder_log2_nodes"] = ladder_crossing(
                c.eval_ladder, [row[f"score_{r}"] for r in rungs]
            )
        return row

    # ------------------------------------------------------------ the loop

    def run(
        self,
        minutes: float | None = None,
        iterations: int | None = None,
        progress: bool = True,
    ) -> TrainResult:
        """Trains until ``minutes`` have passed (no new iteration starts
        after that) or ``iterations`` more iterations are done. Every
        iteration ends with a checkpoint; Ctrl-C stops at once and keeps
        the last one (the unfinished iteration is dropped)."""
        if minutes is None and iterations is None:
            raise ValueError("give minutes= or iterations= (or both)")
        c = self.config
        t_start = time.monotonic()
        done = 0
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=iterations, desc=f"train {c.variant}", unit="it")
        interrupted = False
        try:
            while (iterations is None or done < iterations) and (
                minutes is None or time.monotonic() - t_start < minutes * 60
            ):
                t0 = time.monotonic()
                r = self.self_play()
                if r["interrupted"]:
                    raise KeyboardInterrupt
                t1 = time.monotonic()
                self.buffer.add(r["obs"], r["policy"], r["z"])
                row: dict[str, Any] = {
                    "iteration": self.iteration + 1,
                    "games": int(len(r["games"]["plies"])),
                    "positions": int(len(r["z"])),
                    "buffer": self.buffer.size,
                    "mean_plies": float(np.mean(r["games"]["plies"])),
                    "draws": float(np.mean(r["games"]["return0"] == 0)),
                    "selfplay_seconds": t1 - t0,
                    "forward_share": r["forward_seconds"] / max(t1 - t0, 1e-9),
                    "leaves_per_batch": r["leaves"] / max(r["batches"], 1),
                }
                row.update(self.train_steps(len(r["z"])))
                row["train_seconds"] = time.monotonic() - t1
                self.iteration += 1
                if c.eval_pairs > 0 and c.eval_every > 0 and self.iteration % c.eval_every == 0:
                    row.update(self.evaluate())
                row["elapsed_seconds"] = (self.log[-1]["elapsed_seconds"] if self.log else 0.0) + (
                    time.monotonic() - t0
                )
                self.log.append(row)
                self._maybe_best(row)
                self._save()
                done += 1
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix(
                        lp=f"{row['loss_policy']:.3f}", lv=f"{row['loss_value']:.3f}", refresh=False
                    )
        except KeyboardInterrupt:
            interrupted = True
            # Back to the last checkpoint, so the object matches the files.
            if (self.out / "last.pt").is_file():
                self._resume()
        finally:
            if bar is not None:
                bar.close()
        if not (self.out / "best.pt").is_file() and (self.out / "last.pt").is_file():
            self._write_best()
        return TrainResult(self.out, self.iteration, list(self.log), interrupted)

    def _maybe_best(self, row: dict[str, Any]) -> None:
        scores = [
            v for k, v in row.items() if k.startswith("score_") and not k.endswith(("_lo", "_hi"))
        ]
        if scores and float(np.mean(scores)) >= self.best_score:
            self.best_score = float(np.mean(scores))
            self._write_best()
        elif not scores and self.best_score == -math.inf:
            self._write_best()

    def _write_best(self) -> None:
        """``best.pt``: the network of the best evaluated iteration so far
        (the mean score over the evaluation opponents), float32 weights."""
        atomic_save(
            model_dict(
                self.net,
                self.config.variant,
                self.config.options,
                iteration=self.iteration,
                config=asdict(self.config),
            ),
            self.out / "best.pt",
        )


def train(
    variant: str,
    out: str | os.PathLike[str],
    minutes: float | None = None,
    iterations: int | None = None,
    *,
    progress: bool = True,
    device: str | None = None,
    **config: Any,
) -> TrainResult:
    """Trains a network for ``variant`` by self-play into directory ``out``
    (``best.pt``, ``last.pt``, ``buffer.npz``, ``log.csv``, ``log.json``),
    resuming the run already there. ``config``: :class:`TrainConfig`'s fields.

    The command line does the same: ``dicechess train VARIANT --minutes M --out DIR``.
    """
    return Trainer(TrainConfig(variant=variant, **config), out, device).run(
        minutes, iterations, progress
    )
