"""Reference implementation of Fluky Chess and Metamorph Chess (docs/rules.md 2-3).

Written from scratch (no python-chess): a 5x5 mailbox board.  Squares are
indexed ``rank * 5 + file`` with file 0..4 = a..e and rank 0..4 = 1..5.  A
piece is ``(color, face)`` with color 0 = White, 1 = Black and face one of
``K P N B R``; every non-king piece is a die showing ``face``.

After a die moves its owner rolls it (a chance node, outcomes = the distinct
faces of ``die_faces``) unless
  1. ``roll_skip_on_check == "moved_piece"``: the moved piece gives check
     from its destination with the face it moved as;
     ``roll_skip_on_check == "any"``: the move ends with the enemy king in
     check (also a discovered check);
  2. it reaches the last rank as a knight, bishop or rook;
  3. it is a pawn reaching the last rank (it promotes to N/B/R instead).
King moves are never rolled.  Win by checkmate or by moving the king onto
the goal square (the enemy king's starting square); draw by stalemate or
threefold repetition; ``max_plies`` truncates.
"""

from collections import Counter
from fractions import Fraction

from .base import RefGame

SIZE = 5
FILES = "abcde"
WHITE, BLACK = 0, 1
KNIGHT_JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING_STEPS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
DEFAULT_FEN = "2k2/ppppp/5/PPPPP/2K2 w - - 0 1"


def sq(f, r):
    return r * SIZE + f


def file_of(s):
    return s % SIZE


def rank_of(s):
    return s // SIZE


def on_board(f, r):
    return 0 <= f < SIZE and 0 <= r < SIZE


def square_name(s):
    return FILES[file_of(s)] + str(rank_of(s) + 1)


def parse_square(name):
    return sq(FILES.index(name[0]), int(name[1]) - 1)


def forward(color):
    return 1 if color == WHITE else -1


def last_rank(color):
    return SIZE - 1 if color == WHITE else 0


def parse_fen(fen):
    parts = fen.split()
    board = [None] * (SIZE * SIZE)
    rows = parts[0].split("/")
    assert len(rows) == SIZE
    for i, row in enumerate(rows):
        r = SIZE - 1 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                color = WHITE if ch.isupper() else BLACK
                board[sq(f, r)] = (color, ch.upper())
                f += 1
        assert f == SIZE, fen
    turn = WHITE if len(parts) < 2 or parts[1] == "w" else BLACK
    return board, turn


def board_fen(board):
    rows = []
    for r in range(SIZE - 1, -1, -1):
        row, empty = "", 0
        for f in range(SIZE):
            p = board[sq(f, r)]
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += p[1] if p[0] == WHITE else p[1].lower()
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)


def piece_attacks(board, s, target):
    """Does the piece on ``s`` attack square ``target``?"""
    color, face = board[s]
    f0, r0 = file_of(s), rank_of(s)
    f1, r1 = file_of(target), rank_of(target)
    df, dr = f1 - f0, r1 - r0
    if face == "K":
        return max(abs(df), abs(dr)) == 1
    if face == "N":
        return (df, dr) in KNIGHT_JUMPS
    if face == "P":
        return dr == forward(color) and abs(df) == 1
    if face == "R":
        dirs = ROOK_DIRS
    elif face == "B":
        dirs = BISHOP_DIRS
    else:
        raise ValueError(face)
    for ddf, ddr in dirs:
        f, r = f0 + ddf, r0 + ddr
        while on_board(f, r):
            if sq(f, r) == target:
                return True
            if board[sq(f, r)] is not None:
                break
            f, r = f + ddf, r + ddr
    return False


def is_attacked(board, target, by_color):
    return any(
        p is not None and p[0] == by_color and piece_attacks(board, s, target)
        for s, p in enumerate(board)
    )


def king_square(board, color):
    for s, p in enumerate(board):
        if p == (color, "K"):
            return s
    raise AssertionError("no king")


def in_check(board, color):
    return is_attacked(board, king_square(board, color), 1 - color)


def pseudo_moves(board, color):
    """(from, to, promotion) triples; promotion is None or a face letter."""
    out = []
    for s, p in enumerate(board):
        if p is None or p[0] != color:
            continue
        face = p[1]
        f0, r0 = file_of(s), rank_of(s)

        if face == "P":
            fwd = forward(color)
            if on_board(f0, r0 + fwd):
                targets = []
                t = sq(f0, r0 + fwd)
                if board[t] is None:
                    targets.append(t)
                for df in (-1, 1):
                    if on_board(f0 + df, r0 + fwd):
                        t = sq(f0 + df, r0 + fwd)
                        if board[t] is not None and board[t][0] != color:
                            targets.append(t)
                for t in targets:
                    if rank_of(t) == last_rank(color):
                        for promo in "NBR":
                            out.append((s, t, promo))
                    else:
                        out.append((s, t, None))
            continue
        if face in ("K", "N"):
            steps = KING_STEPS if face == "K" else KNIGHT_JUMPS
            for df, dr in steps:
                if on_board(f0 + df, r0 + dr):
                    t = sq(f0 + df, r0 + dr)
                    if board[t] is None or board[t][0] != color:
                        out.append((s, t, None))
            continue
        dirs = ROOK_DIRS if face == "R" else BISHOP_DIRS
        for df, dr in dirs:
            f, r = f0 + df, r0 + dr
            while on_board(f, r):
                t = sq(f, r)
                if board[t] is None:
                    out.append((s, t, None))
                else:
                    if board[t][0] != color:
                        out.append((s, t, None))
                    break
                f, r = f + df, r + dr
    # A king is never captured (it cannot be attacked on its opponent's turn).
    return [m for m in out if board[m[1]] is None or board[m[1]][1] != "K"]


def make_move(board, move):
    s, t, promo = move
    b = list(board)
    color, face = b[s]
    b[s] = None
    b[t] = (color, promo if promo else face)
    return b


def legal_moves(board, color):
    return [m for m in pseudo_moves(board, color) if not in_check(make_move(board, m), color)]


class FlukyRef(RefGame):
    FIRST = WHITE

    def __init__(
        self,
        roll_skip_on_check="moved_piece",
        die_faces="PPPNBR",
        fen=DEFAULT_FEN,
        max_plies=400,
        goals=("c5", "c1"),
    ):
        assert roll_skip_on_check in ("moved_piece", "any")
        assert die_faces and set(die_faces) <= set("PNBR")
        self.roll_skip_on_check = roll_skip_on_check
        self.die_faces = die_faces
        self.max_plies = max_plies
        self.goal = {WHITE: parse_square(goals[0]), BLACK: parse_square(goals[1])}
        self.board, self.turn = parse_fen(fen)
        self.plies = 0
        super().__init__()
        self._node = "decision"
        self._roll_square = None
        self._last_mover = None
        self._record_key()
        self._start_turn()

    # ------------------------------------------------------------ queries
    def current_player(self):
        return self.turn

    def fen(self):
        return "{} {} - - 0 1".format(board_fen(self.board), "w" if self.turn == WHITE else "b")

    def chance_outcomes(self):
        assert self._node == "chance"
        counts = Counter(self.die_faces)
        return {face: Fraction(n, len(self.die_faces)) for face, n in counts.items()}

    def legal_moves(self):
        assert self._node == "decision"
        return set(self._moves)

    # ------------------------------------------------------------ internals
    def _key(self):
        return (tuple(self.board), self.turn)

    def _roll_follows(self, move, board_after):
        """Does a roll follow ``move`` (made by the side to move)?"""
        s, t, promo = move
        color, face = self.board[s]
        if face == "K":
            return False
        if promo:  # exception 3: a pawn promotes
            return False
        if rank_of(t) == last_rank(color):  # exception 2: N/B/R on the last rank
            return False
        enemy_king = king_square(board_after, 1 - color)
        if self.roll_skip_on_check == "moved_piece":
            if piece_attacks(board_after, t, enemy_king):  # exception 1 (Fluky)
                return False
        elif is_attacked(board_after, enemy_king, color):  # exception 1 (Metamorph)
            return False
        return True

    def _san(self, move, legal):
        s, t, promo = move
        color, face = self.board[s]
        capture = self.board[t] is not None
        if face == "P":
            san = FILES[file_of(s)] if capture else ""
        else:
            san = face
            others = [
                m[0] for m in legal if m[1] == t and m[0] != s and self.board[m[0]][1] == face
            ]
            if others:
                column = any(rank_of(o) == rank_of(s) for o in others)
                row = any(file_of(o) == file_of(s) for o in others)
                if not row:
                    column = True
                if column:
                    san += FILES[file_of(s)]
                if row:
                    san += str(rank_of(s) + 1)
        if capture:
            san += "x"
        san += square_name(t)
        if promo:
            san += "=" + promo
        b2 = make_move(self.board, move)
        if in_check(b2, 1 - color):
            if not self._roll_follows(move, b2) and not legal_moves(b2, 1 - color):
                san += "#"
            else:
                san += "+"
        return san

    def _start_turn(self):
        legal = legal_moves(self.board, self.turn)
        assert legal, "a position without legal moves must have ended the game"
        self._moves = {}
        for m in legal:
            san = self._san(m, legal)
            assert san not in self._moves, san
            self._moves[san] = m
        self._node = "decision"

    def _finish_move(self):
        """End of a move (after its roll, if any): key and game endings."""
        mover = self._last_mover
        self._record_key()
        legal = legal_moves(self.board, self.turn)
        check = in_check(self.board, self.turn)
        if not legal:
            if check:
                self._end("checkmate", winner=mover)
            else:
                self._end("stalemate")
        elif self.repetitions[self._key()] >= 3:
            self._end("threefold_repetition")
        elif self.plies >= self.max_plies:
            self._end("max_plies")
        else:
            self._start_turn()

    # ------------------------------------------------------------ actions
    def apply_move(self, san):
        assert self._node == "decision"
        move = self._moves[san]
        s, t, promo = move
        color, face = self.board[s]
        b2 = make_move(self.board, move)
        roll = self._roll_follows(move, b2)
        enemy_king = king_square(b2, 1 - color)
        gives_check = is_attacked(b2, enemy_king, color)
        moved_checks = piece_attacks(b2, t, enemy_king)
        if face != "K":
            if promo:
                self.events["promotion"] += 1
                self.events["skip_promotion"] += 1
            elif rank_of(t) == last_rank(color):
                self.events["skip_last_rank"] += 1
            elif moved_checks:
                self.events["skip_moved_piece_check"] += 1
            elif gives_check:
                # discovered check only
                if roll:
                    self.events["discovered_check_rolled"] += 1
                else:
                    self.events["discovered_check_skip"] += 1
            if roll:
                self.events["roll"] += 1
        self.board = b2
        self.turn = 1 - color
        self.plies += 1
        self._last_mover = color
        if face == "K" and t == self.goal[color]:
            self.events["king_reached_start"] += 1
            self._end("king_reached_start", winner=color)
            return
        if roll:
            self._roll_square = t
            self._node = "chance"
            self._moves = {}
            return
        self._finish_move()

    def apply_outcome(self, name):
        assert self._node == "chance"
        assert name in self.chance_outcomes(), name
        t = self._roll_square
        color = self.board[t][0]
        self.board = list(self.board)
        self.board[t] = (color, name)
        self._roll_square = None
        if in_check(self.board, 1 - color) and piece_attacks(
            self.board, t, king_square(self.board, 1 - color)
        ):
            self.events["roll_gives_check"] += 1
        self._finish_move()
