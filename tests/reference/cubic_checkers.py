"""Cubic Checkers (docs/rules.md §7), written from the rules text alone.

Whole moves are enumerated as paths (lists of squares) by a plain recursive
search; the engine's one-landing-per-decision encoding is then checked
against them: at every step the legal landings must be exactly the next
squares of the maximum-capture paths that start with the steps taken so far.
Squares are (file, rank) pairs; cubes are letters R B N P (White) and
r b n p (Black).
"""

from . import gardner  # FEN board fields only (the rules are all here)
from .base import RefGame

FILES = "abcdefgh"
DIAGONALS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
DEMOTE = {"R": "B", "B": "N", "N": "P", "P": None}
START_FEN = "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1 w - - 0 1"


def name(sq):
    return f"{FILES[sq[0]]}{sq[1] + 1}"


def parse_square(s):
    return (FILES.index(s[0]), int(s[1]) - 1)


def on(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def parse_board(text):
    return gardner.parse_board(text, 8)


def board_text(board):
    return gardner.board_text(board, 8)


def is_white(p):
    return p.isupper()


def jump_paths(board, start, white):
    """Every complete jump of the cube on ``start``: lists of squares (start
    first). Jumped cubes stay on the board; none is jumped twice; a jump
    that can go on must go on."""
    cube = board[start]
    out = []

    def extend(path, jumped, b):
        here = path[-1]
        went_on = False
        for df, dr in DIAGONALS:
            f, r = here[0] + df, here[1] + dr
            while on(f, r) and (f, r) not in b:
                f, r = f + df, r + dr
            if not on(f, r):
                continue
            x = (f, r)
            if is_white(b[x]) == white or x in jumped:
                continue
            f, r = f + df, r + dr
            while on(f, r) and (f, r) not in b:
                nb = dict(b)
                del nb[here]
                nb[(f, r)] = cube
                went_on = True
                extend(path + [(f, r)], jumped | {x}, nb)
                f, r = f + df, r + dr
        if not went_on and len(path) > 1:
            out.append(path)

    extend([start], frozenset(), board)
    return out


def plain_paths(board, start):
    out = []
    for df, dr in DIAGONALS:
        f, r = start[0] + df, start[1] + dr
        while on(f, r) and (f, r) not in board:
            out.append([start, (f, r)])
            f, r = f + df, r + dr
    return out


class CubicCheckersRef(RefGame):
    """A whole game, move by move; the engine's landings are checked with
    ``legal_steps`` and played with ``apply_step``."""

    def __init__(self, fen=START_FEN, max_plies=1000):
        super().__init__()
        f = fen.split()
        self.board = parse_board(f[0])
        self.white = f[1] == "w"
        self.rook_moved = {True: "R" in f[2], False: "r" in f[2]}
        self.paused = {True: None, False: None}
        if f[3] != "-":
            for s in f[3].split(","):
                sq = parse_square(s)
                self.paused[is_white(self.board[sq])] = sq
        self.no_jump = int(f[4])
        self.move_number = int(f[5])
        self.plies = 0
        self.max_plies = max_plies
        self.taken = []  # landings of the move in progress (start square first)
        self._node = "decision"
        self._new_move()
        self._check_end()

    def _key(self):  # no repetition rule; the base class wants a key
        return None

    def _new_move(self):
        """All legal whole moves of the side to move, as paths."""
        active = [
            sq
            for sq, p in self.board.items()
            if is_white(p) == self.white and sq != self.paused[self.white]
        ]
        paths = []
        if self.rook_moved[self.white]:
            for sq in active:
                paths += jump_paths(self.board, sq, self.white)
        if paths:
            most = max(len(p) for p in paths)
            self.paths = [p for p in paths if len(p) == most]
            self.jumping = True
        else:
            self.paths = [p for sq in active for p in plain_paths(self.board, sq)]
            self.jumping = False
        self.taken = []

    def legal_steps(self):
        """The decisions now: ``c1-d2`` / ``e1xg3`` texts."""
        k = max(len(self.taken), 1)
        sep = "x" if self.jumping else "-"
        return sorted({name(p[k - 1]) + sep + name(p[k]) for p in self.paths})

    def whole_moves(self):
        sep = "x" if self.jumping else "-"
        return sorted(sep.join(name(s) for s in p) for p in self.paths)

    def apply_step(self, text):
        a, b = parse_square(text[:2]), parse_square(text[3:5])
        if not self.taken:
            self.taken = [a]
        assert self.taken[-1] == a, (text, self.taken)
        self.taken.append(b)
        self.paths = [p for p in self.paths if p[: len(self.taken)] == self.taken]
        assert self.paths, text
        self.plies += 1
        if len(self.paths[0]) == len(self.taken):
            self._finish(self.paths[0])
        elif self.plies >= self.max_plies:
            self._end("max_plies")

    def _finish(self, path):
        start, end = path[0], path[-1]
        cube = self.board.pop(start)
        if self.jumping:
            jumped = []
            for a, b in zip(path, path[1:]):
                df = 1 if b[0] > a[0] else -1
                dr = 1 if b[1] > a[1] else -1
                f, r = a[0] + df, a[1] + dr
                while (f, r) != b:
                    if (f, r) in self.board and (f, r) != start:
                        jumped.append((f, r))
                    f, r = f + df, r + dr
            assert len(set(jumped)) == len(jumped) == len(path) - 1, path
            for x in jumped:
                face = DEMOTE[self.board[x].upper()]
                if face is None:
                    del self.board[x]
                    self.events["removed"] += 1
                    if self.paused[not self.white] == x:
                        self.paused[not self.white] = None
                else:
                    self.board[x] = face.lower() if self.white else face
                    self.events["demoted"] += 1
            self.events[f"jump_{min(len(jumped), 3)}"] += 1
            self.no_jump = 0
        else:
            if cube.upper() == "R" and not self.rook_moved[self.white]:
                self.rook_moved[self.white] = True
                self.events["rook_moved"] += 1
            self.no_jump += 1
        self.board[end] = cube
        self.paused[self.white] = end
        if not self.white:
            self.move_number += 1
        self.white = not self.white
        self._new_move()
        self._check_end()

    def _count(self, white):
        return sum(1 for p in self.board.values() if is_white(p) == white)

    def _check_end(self):
        mover = not self.white
        winner = lambda w: 0 if w else 1  # noqa: E731
        if self._count(self.white) <= 3:
            self._end("cubes_left", winner(mover))
        elif self._count(mover) <= 3:
            self._end("cubes_left", winner(self.white))
        elif not self.paths:
            self._end("no_moves", winner(mover))
        elif self.no_jump >= 20:
            self._end("no_jumps")
        elif self.plies >= self.max_plies:
            self._end("max_plies")

    def fen(self):
        flags = ("R" if self.rook_moved[True] else "") + ("r" if self.rook_moved[False] else "")
        paused = [name(s) for s in (self.paused[True], self.paused[False]) if s is not None]
        board = dict(self.board)
        if self.taken:
            board[self.taken[-1]] = board.pop(self.taken[0])
        s = (
            f"{board_text(board)} {'w' if self.white else 'b'} {flags or '-'} "
            f"{','.join(paused) or '-'} {self.no_jump} {self.move_number}"
        )
        if len(self.taken) > 1:
            s += " " + "x".join(name(q) for q in self.taken)
        return s
