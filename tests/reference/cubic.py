"""Reference implementation of Cubic Chess (docs/rules.md section 6).

python-chess supplies the king/knight/bishop/rook/queen moves (castling
included) and attack detection; pawns are generated here with Cubic rules:
one or two steps straight forward, two steps diagonally forward (both
squares crossed/landed on empty), capture one step diagonally forward, from
any rank, no promotion, no en passant.  A captured N/B/R/Q goes to the
capturer's stock; a turn may instead be a rotation of an own pawn into a
piece type from the stock (illegal in check).
"""

from collections import Counter

import chess

from .base import RefGame
from .san8 import san_body

STOCK_TYPES = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


class Rotation:
    """A rotation: the pawn on ``square`` becomes ``piece_type``."""

    __slots__ = ("square", "piece_type")

    def __init__(self, square, piece_type):
        self.square = square
        self.piece_type = piece_type


def pawn_targets(board, square, color):
    """Cubic pawn moves from ``square`` as a list of (to_square, kind), kind in
    "step", "double", "diagonal", "capture" (pseudo-legal)."""
    f, r = chess.square_file(square), chess.square_rank(square)
    fwd = 1 if color == chess.WHITE else -1

    def sq(df, dr):
        ff, rr = f + df, r + dr
        if 0 <= ff < 8 and 0 <= rr < 8:
            return chess.square(ff, rr)
        return None

    out = []
    one = sq(0, fwd)
    if one is not None and board.piece_at(one) is None:
        out.append((one, "step"))
        two = sq(0, 2 * fwd)
        if two is not None and board.piece_at(two) is None:
            out.append((two, "double"))
    for df in (-1, 1):
        near = sq(df, fwd)
        if near is None:
            continue
        target = board.piece_at(near)
        if target is None:
            far = sq(2 * df, 2 * fwd)
            if far is not None and board.piece_at(far) is None:
                out.append((far, "diagonal"))
        elif target.color != color and target.piece_type != chess.KING:
            out.append((near, "capture"))
    return out


def after(board, move):
    """A new board after a Cubic move or rotation (stack-less copy)."""
    b = board.copy(stack=False)
    if isinstance(move, Rotation):
        b.set_piece_at(move.square, chess.Piece(move.piece_type, b.turn))
        b.halfmove_clock = 0
        if b.turn == chess.BLACK:
            b.fullmove_number += 1
        b.turn = not b.turn
    else:
        b.push(move)  # ep_square is always None before, so no en passant
    b.ep_square = None
    return b


def own_king_safe(board_after, color):
    king = board_after.king(color)
    return not board_after.is_attacked_by(not color, king)


def piece_moves(board):
    """Legal king/knight/bishop/rook/queen moves (castling included) from
    python-chess.  Pawns are masked out of its generator (it cannot handle a
    pawn standing on its last rank, and its pawn rules are not Cubic's)."""
    return board.generate_legal_moves(from_mask=chess.BB_ALL & ~board.pawns)


def pawn_moves(board):
    """Legal Cubic pawn moves of the side to move, as (move, board after)."""
    us = board.turn
    for sq in board.pieces(chess.PAWN, us):
        for to, _kind in pawn_targets(board, sq, us):
            m = chess.Move(sq, to)
            b2 = after(board, m)
            if own_king_safe(b2, us):
                yield m, b2


def has_legal_board_move(board):
    return any(True for _ in piece_moves(board)) or any(True for _ in pawn_moves(board))


def legal_rotations(board, stock):
    if board.is_check():
        return []
    us = board.turn
    return [
        Rotation(sq, pt)
        for sq in board.pieces(chess.PAWN, us)
        for pt in STOCK_TYPES
        if stock[us][pt] > 0
    ]


def has_legal_move(board, stock):
    return has_legal_board_move(board) or bool(legal_rotations(board, stock))


class CubicRef(RefGame):
    FIRST = chess.WHITE

    def __init__(self, fen=chess.STARTING_FEN, max_plies=1000, stock=None):
        self.board = chess.Board(fen)
        self.board.ep_square = None
        self.max_plies = max_plies
        self.plies = 0
        self.stock = {chess.WHITE: Counter(), chess.BLACK: Counter()}
        if stock:  # e.g. {"white": "NQ", "black": ""}
            for color, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
                for letter in stock.get(name, ""):
                    self.stock[color][chess.PIECE_SYMBOLS.index(letter.lower())] += 1
        super().__init__()
        self._node = "decision"
        self._record_key()
        self._start_turn()

    # ------------------------------------------------------------ queries
    def current_player(self):
        return 0 if self.board.turn == chess.WHITE else 1

    def stock_string(self, color):
        return "".join(chess.piece_symbol(pt).upper() * self.stock[color][pt] for pt in STOCK_TYPES)

    def fen(self):
        white, black = self.stock_string(chess.WHITE), self.stock_string(chess.BLACK)
        return f"{self.board.fen()} [stock w:{white} b:{black}]"

    def chance_outcomes(self):
        raise AssertionError("Cubic Chess has no chance nodes")

    def legal_moves(self):
        assert self._node == "decision"
        return set(self._moves)

    # ------------------------------------------------------------ internals
    def _key(self):
        stocks = tuple(
            tuple(self.stock[c][pt] for pt in STOCK_TYPES) for c in (chess.WHITE, chess.BLACK)
        )
        return (self.board._transposition_key(), stocks)

    def _stock_after(self, move):
        """Stocks after ``move`` by the side to move (a new dict)."""
        b = self.board
        us = b.turn
        stock = {c: Counter(self.stock[c]) for c in (chess.WHITE, chess.BLACK)}
        if isinstance(move, Rotation):
            stock[us][move.piece_type] -= 1
        else:
            captured = b.piece_type_at(move.to_square)
            if captured in STOCK_TYPES and b.color_at(move.to_square) != us:
                stock[us][captured] += 1
        return stock

    def _suffix(self, b2):
        """Check suffix, given the board after the move."""
        if not b2.is_check():
            return ""
        # In check, rotations are illegal, so only board moves can answer.
        return "+" if has_legal_board_move(b2) else "#"

    def _san(self, move, board_moves, b2):
        b = self.board
        if isinstance(move, Rotation):
            body = (
                f"{chess.SQUARE_NAMES[move.square]}({chess.piece_symbol(move.piece_type).upper()})"
            )
        elif b.piece_type_at(move.from_square) == chess.PAWN:
            fr, to = move.from_square, move.to_square
            if abs(chess.square_rank(to) - chess.square_rank(fr)) == 2:
                body = chess.SQUARE_NAMES[fr] + "-" + chess.SQUARE_NAMES[to]
            elif b.piece_at(to) is not None:
                body = chess.FILE_NAMES[chess.square_file(fr)] + "x" + chess.SQUARE_NAMES[to]
            else:
                body = chess.SQUARE_NAMES[to]
        else:
            body = san_body(b, move, board_moves)
        return body + self._suffix(b2)

    def _start_turn(self):
        b = self.board
        with_after = [(m, after(b, m)) for m in piece_moves(b)] + list(pawn_moves(b))
        with_after += [(r, after(b, r)) for r in legal_rotations(b, self.stock)]
        if not with_after:  # only from a given FEN; otherwise caught after the move
            if b.is_check():
                self._end("checkmate", winner=not b.turn)
            else:
                self._end("stalemate")
            return
        board_moves = [m for m, _ in with_after if not isinstance(m, Rotation)]
        self._moves = {}
        for m, b2 in with_after:
            san = self._san(m, board_moves, b2)
            assert san not in self._moves, san
            self._moves[san] = m
        self._node = "decision"

    # ------------------------------------------------------------ actions
    def apply_outcome(self, name):
        raise AssertionError("Cubic Chess has no chance nodes")

    def apply_move(self, san):
        assert self._node == "decision"
        move = self._moves[san]
        b = self.board
        mover = b.turn
        if isinstance(move, Rotation):
            self.events["rotation"] += 1
            self.events["rotation_" + chess.piece_symbol(move.piece_type).upper()] += 1
        elif b.piece_type_at(move.from_square) == chess.PAWN:
            df = abs(chess.square_file(move.to_square) - chess.square_file(move.from_square))
            dr = abs(chess.square_rank(move.to_square) - chess.square_rank(move.from_square))
            if df == 2:
                self.events["pawn_diagonal_two_step"] += 1
            elif dr == 2:
                self.events["pawn_straight_two_step"] += 1
            if chess.square_rank(move.to_square) == (7 if mover == chess.WHITE else 0):
                self.events["pawn_on_last_rank"] += 1
        elif b.is_castling(move):
            self.events["castling"] += 1
        if not isinstance(move, Rotation) and b.piece_type_at(move.to_square) in STOCK_TYPES:
            self.events["capture_to_stock"] += 1
        self.stock = self._stock_after(move)
        self.board = b = after(b, move)
        self.plies += 1
        if b.is_check():
            self.events["check"] += 1
            if isinstance(move, Rotation):
                self.events["rotation_gives_check"] += 1
        self._record_key()
        if not has_legal_move(b, self.stock):
            if b.is_check():
                self._end("checkmate", winner=mover)
            else:
                self._end("stalemate")
        elif self.repetitions[self._key()] >= 3:
            self._end("threefold_repetition")
        elif b.halfmove_clock >= 100:
            self._end("fifty_moves")
        elif b.is_insufficient_material():
            self._end("insufficient_material")
        elif self.plies >= self.max_plies:
            self._end("max_plies")
        else:
            self._start_turn()
