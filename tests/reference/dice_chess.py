"""Reference implementation of two-dice Dice Chess (docs/rules.md section 9).

Orthodox chess (python-chess).  Before each move the player rolls two dice
showing piece types (faces ``PNBRQK`` by default).  The player must move a
piece of a rolled type; doubles allow any legal move; castling counts as a
king or a rook move, en passant as a pawn move.  A roll allowing no move
passes the turn (no decision), in check or not.  A king left in check after
a passed turn may be captured by an attacker of a rolled type (any attacker
on doubles), pinned or not: ``king_captured``.  Before every roll, a side
with no legal chess move (and no king to capture) is checkmated if in check,
stalemated otherwise.  Draws: threefold repetition, 50 moves, insufficient
material.  ``max_plies`` counts moves; forced passes are capped at
``max_plies`` as well (truncation).

The dice rule set's options: ``dice`` (1 or 2 dice), ``doubles`` (``any``:
doubles allow any legal move; ``rolled``: only their type), ``no_move``
(``pass`` the turn, or ``reroll``: the same player rolls again, the board
untouched; rerolls count against the same cap as passes).
"""

from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement

import chess

from .base import RefGame
from .san8 import piece_letter, san_body

FACES = "PNBRQK"


def roll_name(faces):
    return "".join(sorted(faces, key=FACES.index))


class DiceRef(RefGame):
    """Queries both dice-chess references share (python-chess ``board``,
    ``_outcomes`` by name, ``_moves`` by SAN, ``_dice`` the roll shown)."""

    FIRST = chess.WHITE

    def current_player(self):
        return 0 if self.board.turn == chess.WHITE else 1

    def dice(self):
        return self._dice

    def chance_outcomes(self):
        assert self._node == "chance"
        return dict(self._outcomes)

    def legal_moves(self):
        assert self._node == "decision"
        return set(self._moves)


class DiceChessRef(DiceRef):
    def __init__(
        self,
        fen=chess.STARTING_FEN,
        max_plies=1000,
        die_faces="PNBRQK",
        dice=2,
        doubles="any",
        no_move="pass",
    ):
        self.max_plies = max_plies
        self.doubles_any = doubles == "any"
        self.reroll = no_move == "reroll"
        counts = Counter(die_faces)
        n = len(die_faces)
        probs = Counter()
        for roll in combinations_with_replacement(FACES, dice):
            ways = 1
            for f in roll:
                ways *= counts[f]
            if dice == 2 and roll[0] != roll[1]:
                ways *= 2
            if ways:
                probs["".join(roll)] += Fraction(ways, n**dice)
        self._outcomes = dict(probs)
        self.board = chess.Board(fen)
        self.plies = 0
        self.passes = 0
        super().__init__()
        self._dice = None
        self._record_key()
        b = self.board
        # docs/rules.md section 0's order: no move (mate, stalemate) first.
        if not self._enemy_king_attacked() and not any(b.legal_moves):
            self._start_turn()
        elif b.halfmove_clock >= 100:
            self._end("fifty_moves")
        elif b.is_insufficient_material():
            self._end("insufficient_material")
        else:
            self._start_turn()

    def fen(self):
        return self.board.fen()

    # ------------------------------------------------------------ internals
    def _key(self):
        return self.board._transposition_key()

    def _enemy_king_attacked(self):
        b = self.board
        k = b.king(not b.turn)
        return k is not None and b.is_attacked_by(b.turn, k)

    def _start_turn(self):
        b = self.board
        self._dice = None
        self._moves = {}
        if not self._enemy_king_attacked() and not any(b.legal_moves):
            if b.is_check():
                self.events["checkmate"] += 1
                self._end("checkmate", winner=not b.turn)
            else:
                self.events["stalemate"] += 1
                self._end("stalemate")
            return
        self._node = "chance"

    def _doubles(self, name):
        return self.doubles_any and len(name) == 2 and name[0] == name[1]

    def _allowed(self, name):
        b = self.board
        doubles = self._doubles(name)
        allowed = set()
        for m in b.legal_moves:
            letter = piece_letter(b, m.from_square)
            if doubles or letter in name or (b.is_castling(m) and "R" in name):
                allowed.add(m)
        k = b.king(not b.turn)
        if k is not None:
            for sq in b.attackers(b.turn, k):
                if doubles or piece_letter(b, sq) in name:
                    last = chess.square_rank(k) in (0, 7) and b.piece_type_at(sq) == chess.PAWN
                    promos = (
                        [chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT] if last else [None]
                    )
                    for p in promos:
                        allowed.add(chess.Move(sq, k, promotion=p))
        return allowed

    def _san(self, move, allowed):
        b = self.board
        s = san_body(b, move, allowed)
        if b.piece_type_at(move.to_square) == chess.KING:
            return s  # the game ends: no suffix
        b.push(move)
        suffix = "#" if b.is_checkmate() else "+" if b.is_check() else ""
        b.pop()
        return s + suffix

    # ------------------------------------------------------------ actions
    def apply_outcome(self, name):
        assert self._node == "chance"
        assert name in self._outcomes, name
        allowed = self._allowed(name)
        if not allowed:
            self.events["forced_pass"] += 1
            if self.board.is_check():
                self.events["pass_in_check"] += 1
            self.passes += 1
            if self.passes >= self.max_plies:
                self._end("max_plies")
                return
            if self.reroll:
                return  # the same player rolls again
            b = self.board
            if b.turn == chess.BLACK:
                b.fullmove_number += 1
            b.turn = not b.turn
            b.ep_square = None
            self._start_turn()
            return
        if self._doubles(name):
            self.events["doubles"] += 1
        self._dice = name
        self._node = "decision"
        self._moves = {self._san(m, allowed): m for m in allowed}

    def apply_move(self, san):
        assert self._node == "decision"
        b = self.board
        self.plies += 1
        move = self._moves[san]
        mover = b.turn
        self._dice_used = self._dice
        self._dice = None
        if b.piece_type_at(move.to_square) == chess.KING:
            self.events["king_capture"] += 1
            b.push(move)
            self._end("king_captured", winner=mover)
            return
        if b.is_castling(move):
            self.events["castling"] += 1
            if "K" not in self._dice_used and not self._doubles(self._dice_used):
                self.events["castling_with_rook"] += 1
        if b.is_en_passant(move):
            self.events["en_passant"] += 1
        if move.promotion:
            self.events["promotion"] += 1
        b.push(move)
        self._record_key()
        if not any(b.legal_moves):
            if b.is_check():
                self.events["checkmate"] += 1
                self._end("checkmate", winner=mover)
            else:
                self.events["stalemate"] += 1
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
