"""Reference implementation of Vegas Fun Chess (docs/rules.md section 4).

Orthodox chess (python-chess) plus two dice.  A turn is one of:

1. in check: no roll, any legal move (must evade);
2. the player's previous move gave check: no roll, any legal move or pass;
3. otherwise roll both dice; move a piece of a rolled type (castling is a
   king move, a promotion a pawn move); optional face ``*``: any legal move
   or pass; no rolled type can move: the turn passes (forced, no decision).

Stalemate ruling: a player to roll with no legal move at all (not in check)
still rolls; a king on either die draws (``stalemate``), otherwise the turn
passes.  Checkmate: in check with no legal move.  Automatic threefold
repetition, 50-move rule, insufficient material, ``max_plies``.
"""

from collections import Counter
from fractions import Fraction

import chess

from .base import RefGame
from .san8 import piece_letter


class VegasRef(RefGame):
    FIRST = chess.WHITE

    def __init__(self, die_a="PNBRKP", die_b="PNBRQ*", fen=chess.STARTING_FEN, max_plies=1000):
        self.die_a = die_a
        self.die_b = die_b
        self.max_plies = max_plies
        # Ordered pair (die A face, die B face); equal pairs merge.
        probs = Counter()
        for a in die_a:
            for b in die_b:
                probs[a + b] += Fraction(1, len(die_a) * len(die_b))
        self._outcomes = dict(probs)
        self.board = chess.Board(fen)
        self.plies = 0  # decisions made (moves and voluntary passes)
        self.gave_check = {chess.WHITE: False, chess.BLACK: False}
        super().__init__()
        self._dice = None
        self._node = None
        self._can_pass = False
        self._record_key()
        self._start_turn()

    # ------------------------------------------------------------ queries
    def current_player(self):
        return 0 if self.board.turn == chess.WHITE else 1

    def dice(self):
        return self._dice

    def fen(self):
        return self.board.fen()

    def chance_outcomes(self):
        assert self._node == "chance"
        return dict(self._outcomes)

    def legal_moves(self):
        assert self._node == "decision"
        sans = set(self._moves)
        if self._can_pass:
            sans.add("pass")
        return sans

    # ------------------------------------------------------------ internals
    def _key(self):
        return self.board._transposition_key()

    def _end(self, reason, winner=None):
        super()._end(reason, winner)
        self._can_pass = False

    def _decision(self, moves, can_pass):
        self._node = "decision"
        self._moves = {self.board.san(m): m for m in moves}
        self._can_pass = can_pass

    def _pass_turn(self):
        """The side to move passes (forced or voluntary): no move, no key."""
        self.gave_check[self.board.turn] = False
        self.board.turn = not self.board.turn
        self.board.ep_square = None  # the en-passant right is gone
        self._start_turn()

    def _start_turn(self):
        b = self.board
        self._dice = None
        self._moves = {}
        self._can_pass = False
        legal = list(b.legal_moves)
        if b.is_check():
            self.events["in_check_turn"] += 1
            if not legal:  # only possible from a given FEN
                self._end("checkmate", winner=not b.turn)
                return
            self._decision(legal, can_pass=False)
        elif self.gave_check[b.turn]:
            if legal:
                self.events["free_move"] += 1
                self._decision(legal, can_pass=True)
            else:
                # Only "pass" is possible: no empty decision, the turn passes.
                self.events["free_move_forced_pass"] += 1
                self._pass_turn()
        else:
            self._node = "chance"

    # ------------------------------------------------------------ actions
    def apply_outcome(self, name):
        assert self._node == "chance"
        assert name in self._outcomes, name
        self._dice = name
        b = self.board
        legal = list(b.legal_moves)
        if not legal:
            if "K" in name:
                self.events["stalemate_draw"] += 1
                self._end("stalemate")
            else:
                self.events["stalemate_pass"] += 1
                self._pass_turn()
            return
        if "*" in name:
            self.events["optional_roll"] += 1
            self._decision(legal, can_pass=True)
            return
        allowed = [m for m in legal if piece_letter(b, m.from_square) in name]
        if not allowed:
            self.events["forced_pass"] += 1
            self._pass_turn()
            return
        self._decision(allowed, can_pass=False)

    def apply_move(self, san):
        assert self._node == "decision"
        b = self.board
        self.plies += 1
        if san == "pass":
            assert self._can_pass, "pass not allowed here"
            self.events["free_pass" if self._dice is None else "optional_pass"] += 1
            if self.plies >= self.max_plies:
                self._end("max_plies")
                return
            self._pass_turn()
            return
        move = self._moves[san]
        mover = b.turn
        if b.is_castling(move):
            self.events["castling"] += 1
        if b.is_en_passant(move):
            self.events["en_passant"] += 1
        if move.promotion:
            self.events["promotion"] += 1
        b.push(move)
        gives_check = b.is_check()
        self.gave_check[mover] = gives_check
        if gives_check:
            self.events["check"] += 1
        self._record_key()
        if gives_check and not any(b.legal_moves):
            self._end("checkmate", winner=mover)
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
