"""Gardner minichess (docs/rules.md §8), written from the rules text alone.

A deliberately plain 5x5 move generator: a dict board, pseudo-legal moves by
walking directions, and legality by making the move and asking whether the
mover's king is attacked. Moves are UCI strings (``b1c3``, ``a4a5q``).
"""

from .base import RefGame

FILES = "abcde"
N = 5
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
START_FEN = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"


def name(f, r):
    return f"{FILES[f]}{r + 1}"


def parse_board(text, n=N):
    """A FEN board field as {(file, rank): letter} (any n x n board)."""
    board = {}
    for i, row in enumerate(text.split("/")):
        r = n - 1 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, r)] = ch
                f += 1
    return board


def board_text(board, n=N):
    """The FEN board field of {(file, rank): letter} (any n x n board)."""
    rows = []
    for r in range(n - 1, -1, -1):
        s, empty = "", 0
        for f in range(n):
            p = board.get((f, r))
            if p is None:
                empty += 1
                continue
            if empty:
                s += str(empty)
                empty = 0
            s += p
        rows.append(s + (str(empty) if empty else ""))
    return "/".join(rows)


def white(p):
    return p.isupper()


def on(f, r):
    return 0 <= f < N and 0 <= r < N


def attacked(board, sq, by_white):
    """Whether a piece of the given colour attacks ``sq``."""
    f, r = sq
    for (ff, rr), p in board.items():
        if white(p) != by_white:
            continue
        kind = p.upper()
        df, dr = f - ff, r - rr
        if kind == "P":
            if abs(df) == 1 and dr == (1 if by_white else -1):
                return True
        elif kind == "N":
            if (df, dr) in KNIGHT:
                return True
        elif kind == "K":
            if max(abs(df), abs(dr)) == 1:
                return True
        else:
            dirs = []
            if kind in "RQ":
                dirs += ROOK_DIRS
            if kind in "BQ":
                dirs += BISHOP_DIRS
            for sf, sr in dirs:
                x, y = ff + sf, rr + sr
                while on(x, y):
                    if (x, y) == (f, r):
                        return True
                    if (x, y) in board:
                        break
                    x, y = x + sf, y + sr
    return False


def pseudo_moves(board, white_to_move):
    """(from, to, promotion letter or None) for every pseudo-legal move."""
    out = []
    for (f, r), p in list(board.items()):
        if white(p) != white_to_move:
            continue
        kind = p.upper()

        def target_ok(x, y):
            q = board.get((x, y))
            return q is None or white(q) != white_to_move

        if kind == "P":
            dr = 1 if white_to_move else -1
            last = N - 1 if white_to_move else 0
            targets = []
            if on(f, r + dr) and (f, r + dr) not in board:
                targets.append((f, r + dr))
            for df in (-1, 1):
                q = board.get((f + df, r + dr))
                if q is not None and white(q) != white_to_move:
                    targets.append((f + df, r + dr))
            for t in targets:
                if t[1] == last:
                    out.extend(((f, r), t, pr) for pr in "qrbn")
                else:
                    out.append(((f, r), t, None))
        elif kind in "NK":
            for df, dr in KNIGHT if kind == "N" else KING:
                x, y = f + df, r + dr
                if on(x, y) and target_ok(x, y):
                    out.append(((f, r), (x, y), None))
        else:
            dirs = (ROOK_DIRS if kind in "RQ" else []) + (BISHOP_DIRS if kind in "BQ" else [])
            for sf, sr in dirs:
                x, y = f + sf, r + sr
                while on(x, y):
                    if target_ok(x, y):
                        out.append(((f, r), (x, y), None))
                    if (x, y) in board:
                        break
                    x, y = x + sf, y + sr
    return out


def make(board, mv, white_to_move):
    (frm, to, promo) = mv
    b = dict(board)
    p = b.pop(frm)
    if promo:
        p = promo.upper() if white_to_move else promo
    b[to] = p
    return b


def king_sq(board, white_side):
    k = "K" if white_side else "k"
    return next((sq for sq, p in board.items() if p == k), None)


def legal_moves(board, white_to_move):
    out = {}
    for mv in pseudo_moves(board, white_to_move):
        b = make(board, mv, white_to_move)
        if not attacked(b, king_sq(b, white_to_move), not white_to_move):
            frm, to, promo = mv
            out[name(*frm) + name(*to) + (promo or "")] = mv
    return out


def perft(board, white_to_move, depth):
    """Leaf count of the move tree (game ends are not leaves of their own:
    a position without moves contributes 0 at depth >= 1, as in chess perft)."""
    moves = legal_moves(board, white_to_move)
    if depth == 1:
        return len(moves)
    return sum(
        perft(make(board, mv, white_to_move), not white_to_move, depth - 1) for mv in moves.values()
    )


class GardnerRef(RefGame):
    """A whole game: moves, threefold repetition, mate, stalemate, max_plies."""

    def __init__(self, fen=START_FEN, max_plies=400):
        super().__init__()
        fields = fen.split()
        self.board = parse_board(fields[0])
        self.white = fields[1] == "w"
        self.plies = 0
        self.max_plies = max_plies
        self._node = "decision"
        self._record_key()
        self._update()

    def _key(self):
        return (board_text(self.board), self.white)

    def legal_moves(self):
        return sorted(self._moves)

    def apply_move(self, uci):
        mv = self._moves[uci]
        if mv[2]:
            self.events["promotion"] += 1
        if mv[1] in self.board:
            self.events["capture"] += 1
        self.board = make(self.board, mv, self.white)
        self.white = not self.white
        self.plies += 1
        self._record_key()
        self._update()

    def _update(self):
        self._moves = legal_moves(self.board, self.white)
        in_check = attacked(self.board, king_sq(self.board, self.white), not self.white)
        if not self._moves:
            if in_check:
                self._end("checkmate", 1 if self.white else 0)
            else:
                self._end("stalemate")
        elif self.repetitions[self._key()] >= 3:
            self._end("threefold_repetition")
        elif self.plies >= self.max_plies:
            self._end("max_plies")

    def fen_board(self):
        return board_text(self.board)
