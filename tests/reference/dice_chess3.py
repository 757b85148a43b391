"""Reference implementation of three-dice DiceChess, the Moscow version
(docs/rules.md section 10).

Orthodox pieces and setup (python-chess boards).  Every turn starts with a
roll of three dice (faces P N B R Q K; 56 multisets).  The player then makes
up to three single moves, one per die, in any order; a die moves a piece of
its type (castling: a king die; a promotion: a pawn die); the same piece may
move again.  The player must use as many dice as possible over the turn: a
move is legal only if the rest of the turn can still reach that maximum,
unless it captures the king (which ends the game at once; a sequence through
a king capture counts the dice used up to it).  A turn in which no die can be
used passes.

No check: moves are pseudo-legal; castling keeps its attack conditions.  En
passant only as the first move of a turn, against the opponent's last move.
Draws: threefold repetition with keys after whole turns (a turn without a
move records none), and 100 turns in a row (50 by each side, turns without a
move included) without a capture or pawn move.  ``max_plies`` counts moves.
"""

from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial

import chess

from .dice_chess import DiceRef
from .san8 import piece_letter, san_body

FACES = "PNBRQK"


def orderings(name):
    c = Counter(name)
    n = factorial(len(name))
    for v in c.values():
        n //= factorial(v)
    return n


def captures_king(board, move):
    return board.piece_type_at(move.to_square) == chess.KING


def moves_of(board, face):
    return [
        m for m in board.generate_pseudo_legal_moves() if piece_letter(board, m.from_square) == face
    ]


def push_within_turn(board, move):
    mover = board.turn
    board.push(move)
    board.turn = mover
    board.ep_square = None


def most_dice(board, dice, cap):
    """The most dice of ``dice`` (a string) usable in a row, stopping at ``cap``."""
    best = 0
    for face in sorted(set(dice)):
        rest = dice.replace(face, "", 1)
        for m in moves_of(board, face):
            if captures_king(board, m) or not rest:
                value = 1
            else:
                push_within_turn(board, m)
                value = 1 + most_dice(board, rest, cap - 1)
                board.pop()
            best = max(best, value)
            if best >= cap:
                return best
    return best


class DiceChess3Ref(DiceRef):
    def __init__(self, fen=chess.STARTING_FEN, max_plies=1000):
        self.max_plies = max_plies
        self._outcomes = {
            "".join(c): Fraction(orderings(c), 216) for c in combinations_with_replacement(FACES, 3)
        }
        self.board = chess.Board(fen)
        self.plies = 0
        self.quiet_turns = self.board.halfmove_clock
        super().__init__()
        self._dice = None
        self._left = ""
        self._record_key()
        if self.quiet_turns >= 100:
            self._end("fifty_moves")
        else:
            self._node = "chance"

    def dice_left(self):
        return self._left if self._node == "decision" else None

    def fen(self):
        return self.board.fen() + f" [{self._dice} {self._left}]"

    # ------------------------------------------------------------ internals
    def _key(self):
        b = self.board
        ep = b.ep_square if b.has_pseudo_legal_en_passant() else None
        return (
            b.pawns,
            b.knights,
            b.bishops,
            b.rooks,
            b.queens,
            b.kings,
            b.occupied_co[chess.WHITE],
            b.occupied_co[chess.BLACK],
            b.turn,
            b.clean_castling_rights(),
            ep,
        )

    def _decide(self):
        """Sets up the decision with the dice left, or ends the turn."""
        b = self.board
        need = most_dice(b, self._left, len(self._left))
        if need == 0:
            if self._left and len(self._left) < 3:
                self.events["dice_skipped"] += 1
            self._end_turn()
            return
        legal = []
        refused = False
        for face in sorted(set(self._left)):
            rest = self._left.replace(face, "", 1)
            for m in moves_of(b, face):
                ok = captures_king(b, m) or need == 1
                if not ok:
                    push_within_turn(b, m)
                    ok = 1 + most_dice(b, rest, need - 1) >= need
                    b.pop()
                if ok:
                    legal.append(m)
                refused = refused or not ok
        if refused:
            self.events["max_dice_rule"] += 1
        self._node = "decision"
        self._moves = {san_body(b, m, legal): m for m in legal}

    def _end_turn(self):
        b = self.board
        moved = len(self._left) < 3
        if not moved:
            self.events["empty_turn"] += 1
            if b.turn == chess.BLACK:
                b.fullmove_number += 1
            b.turn = not b.turn
            b.ep_square = None
        else:
            # the side to move is switched back to the opponent; the ep
            # square of the turn's last move, if it was a double step, stays
            b.turn = not b.turn
            b.ep_square = self._last_ep
        self.quiet_turns = 0 if self._reset else self.quiet_turns + 1
        self._dice = None
        self._left = ""
        self._moves = {}
        self._node = "chance"
        if moved:
            self._record_key()
            if self.repetitions[self._key()] >= 3:
                self._end("threefold_repetition")
                return
        if self.quiet_turns >= 100:
            self._end("fifty_moves")
        elif moved and self.plies >= self.max_plies:
            self._end("max_plies")

    # ------------------------------------------------------------ actions
    def apply_outcome(self, name):
        assert self._node == "chance"
        assert name in self._outcomes, name
        self._dice = name
        self._left = name
        self._reset = False
        self._last_ep = None
        self._decide()

    def apply_move(self, san):
        assert self._node == "decision"
        b = self.board
        self.plies += 1
        move = self._moves[san]
        mover = b.turn
        face = piece_letter(b, move.from_square)
        if b.is_castling(move):
            self.events["castling"] += 1
        if b.is_en_passant(move):
            self.events["en_passant"] += 1
        if move.promotion:
            self.events["promotion" if move.promotion == chess.QUEEN else "underpromotion"] += 1
        if len(self._left) < 3 and getattr(self, "_last_to", None) == move.from_square:
            self.events["same_piece_again"] += 1
        if captures_king(b, move):
            self.events["king_capture_mid_turn" if len(self._left) > 1 else "king_capture"] += 1
            b.push(move)
            self._end("king_captured", winner=mover)
            return
        if b.piece_type_at(move.from_square) == chess.PAWN or b.is_capture(move):
            self._reset = True
        b.push(move)
        self._last_ep = b.ep_square
        self._last_to = move.to_square
        b.turn = mover
        b.ep_square = None
        self._left = self._left.replace(face, "", 1)
        if self.plies >= self.max_plies:
            # the turn ends here if nothing more is usable; else truncated
            need = most_dice(b, self._left, len(self._left)) if self._left else 0
            if need:
                self._end("max_plies")
                return
        self._decide()
