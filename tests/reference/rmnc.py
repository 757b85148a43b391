"""Reference implementation of Random Move Number Chess (docs/rules.md section 5).

Orthodox chess (python-chess) where a die decides how many moves a player
makes in a turn.  Players (0, 1) are distinct from colours: ``colors()``
tells which colour each player commands; a third 6 in a row switches them.

Flow:
* colour choosing: player 0 throws, player 1 throws (chance nodes "1".."6"),
  ties throw again; the higher throw plays White; all throws are recorded;
* the first White move and the first Black move are made without a throw;
* every later turn: the player to move throws, the run table gives the
  number of moves (0 = forfeit), a switch, or a loss (``six_sixes``);
* a move after which the opponent's king is in check ends the turn;
* a player who gets no move while in check leaves the check standing: the
  opponent may capture the king (``king_captured``), even with a move that
  leaves their own king attacked.
"""

from fractions import Fraction

import chess

from .base import RefGame
from .san8 import san_body

COLOR_NAMES = {chess.WHITE: "white", chess.BLACK: "black"}


def run_length(record):
    """Length of the run of equal throws that ends the record."""
    n = 1
    while n < len(record) and record[-1 - n] == record[-1]:
        n += 1
    return n


def moves_for_throw(d, n):
    """The throw table: number of moves, or "switch" / "lose"."""
    if d in (2, 3, 4, 5):
        return 1 if n == 1 else n
    if d == 1:
        return n - 1
    assert d == 6
    if n == 1:
        return 2
    if n == 2:
        return 3
    if n == 3:
        return "switch"
    if n in (4, 5):
        return n + 1
    return "lose"  # the sixth 6 in a row (n >= 6)


class RmncRef(RefGame):
    FIRST = 0  # _end takes the winning player, not a colour

    def __init__(self, fen=chess.STARTING_FEN, max_plies=1000):
        self.board = chess.Board(fen)
        self.max_plies = max_plies
        self.plies = 0
        self.records = [[], []]
        self.color_of = None  # [colour of player 0, colour of player 1]
        super().__init__()
        self._phase = "choose0"  # choose0, choose1, throw, decision, terminal
        self._first_turns_left = 2
        self._moves_left = 0
        self._record_key()

    # ------------------------------------------------------------ queries
    def node(self):
        if self._phase == "terminal":
            return "terminal"
        if self._phase == "decision":
            return "decision"
        return "chance"

    def player_of(self, color):
        return self.color_of.index(color)

    def current_player(self):
        assert self._phase == "decision"
        return self.player_of(self.board.turn)

    def thrower(self):
        """The player who throws at the current chance node."""
        if self._phase == "choose0":
            return 0
        if self._phase == "choose1":
            return 1
        return self.player_of(self.board.turn)

    def colors(self):
        if self.color_of is None:
            return None
        return [COLOR_NAMES[c] for c in self.color_of]

    def moves_left(self):
        return self._moves_left

    def throw_records(self):
        return [list(r) for r in self.records]

    def fen(self):
        return self.board.fen()

    def chance_outcomes(self):
        assert self.node() == "chance"
        return {str(d): Fraction(1, 6) for d in range(1, 7)}

    def legal_moves(self):
        assert self._phase == "decision"
        return set(self._moves)

    # ------------------------------------------------------------ internals
    def _key(self):
        return self.board._transposition_key()

    def _end(self, reason, winner_player=None):
        super()._end(reason, winner_player)
        self._phase = "terminal"  # node() reads the phase, not _node
        self._moves_left = 0

    def _enemy_king_attacked(self, board):
        """Is the king of the colour *not* to move attacked (a standing check)?"""
        king = board.king(not board.turn)
        return king is not None and board.is_attacked_by(board.turn, king)

    def _variant_legal(self, board):
        """Legal moves for the side to move: orthodox legal moves plus, when
        the enemy king is left in check, every pseudo-legal king capture."""
        moves = list(board.legal_moves)
        if self._enemy_king_attacked(board):
            king = board.king(not board.turn)
            seen = set(moves)
            for m in board.generate_pseudo_legal_moves(to_mask=chess.BB_SQUARES[king]):
                if m not in seen:
                    moves.append(m)
        return moves

    def _is_king_capture(self, board, move):
        return move.to_square == board.king(not board.turn)

    def _set_decision(self):
        b = self.board
        legal = self._variant_legal(b)
        assert legal, "decision node without legal moves"
        moves = {}
        for m in legal:
            if self._is_king_capture(b, m):
                san = san_body(b, m, legal)  # a king capture has no suffix
            else:
                san = b.san(m)  # orthodox suffix: + check, # no legal reply
            assert san not in moves
            moves[san] = m
        self._moves = moves
        self._phase = "decision"

    def _begin_turn(self):
        """Start of a turn of the player commanding ``board.turn``."""
        b = self.board
        self._moves = {}
        self._moves_left = 0
        if not self._variant_legal(b):
            if b.is_check():  # cannot arise in play (mate ends the game at once)
                self._end("checkmate", self.player_of(not b.turn))
            else:
                self.events["stalemate_turn_start"] += 1
                self._end("stalemate")
            return
        if b.is_check():
            self.events["turn_starts_in_check"] += 1
        if self._first_turns_left > 0:
            self._first_turns_left -= 1
            self._moves_left = 1
            self._set_decision()
        else:
            self._phase = "throw"

    # ------------------------------------------------------------ actions
    def apply_outcome(self, name):
        assert self.node() == "chance"
        d = int(name)
        assert 1 <= d <= 6
        if self._phase == "choose0":
            self.records[0].append(d)
            self._phase = "choose1"
            return
        if self._phase == "choose1":
            self.records[1].append(d)
            d0 = self.records[0][-1]
            if d0 == d:
                self.events["colour_tie"] += 1
                self._phase = "choose0"
                return
            white = 0 if d0 > d else 1
            self.color_of = [None, None]
            self.color_of[white] = chess.WHITE
            self.color_of[1 - white] = chess.BLACK
            self._begin_turn()
            return
        # A turn's throw.
        b = self.board
        p = self.player_of(b.turn)
        self.records[p].append(d)
        n = run_length(self.records[p])
        result = moves_for_throw(d, n)
        if result == "lose":
            self.events["six_sixes"] += 1
            self._end("six_sixes", 1 - p)
            return
        if result == "switch":
            self.events["switch"] += 1
            if b.is_check():
                self.events["check_left_standing"] += 1
            self.color_of = [self.color_of[1], self.color_of[0]]
            self._begin_turn()  # the opponent now commands the colour to move
            return
        if result == 0:
            self.events["forfeit"] += 1
            if b.is_check():
                self.events["check_left_standing"] += 1
            b.turn = not b.turn
            b.ep_square = None  # the en-passant right was for this move only
            self._begin_turn()
            return
        self.events[f"moves_{min(result, 4)}"] += 1
        self._moves_left = result
        self._set_decision()

    def apply_move(self, san):
        assert self._phase == "decision"
        b = self.board
        move = self._moves[san]
        mover = b.turn
        mover_player = self.player_of(mover)
        self.plies += 1
        if self._is_king_capture(b, move):
            self.events["king_captured"] += 1
            b.push(move)
            self._end("king_captured", mover_player)
            return
        if b.is_en_passant(move):
            self.events["en_passant"] += 1
        if b.is_castling(move):
            self.events["castling"] += 1
        if move.promotion:
            self.events["promotion"] += 1
        b.push(move)  # now board.turn is the opponent's colour
        self._moves_left -= 1
        ended = None
        continues = False
        if b.is_check():
            # A move leaving the opponent's king in check ends the turn.
            if self._moves_left > 0:
                self.events["check_ends_turn_early"] += 1
            self._moves_left = 0
            self._record_key()
            if not self._variant_legal(b):
                ended = ("checkmate", mover_player)
        elif self._moves_left > 0:
            continues = True
            self.events["multi_move_continue"] += 1
            b.turn = mover
            b.ep_square = None  # the double-stepper moves again: right gone
            self._record_key()
            if not self._variant_legal(b):
                self.events["stalemate_mid_turn"] += 1
                ended = ("stalemate", None)
        else:
            self._record_key()
            if not self._variant_legal(b):
                ended = ("stalemate", None)
        if ended is None:
            if self.repetitions[b._transposition_key()] >= 3:
                ended = ("threefold_repetition", None)
            elif b.halfmove_clock >= 100:
                ended = ("fifty_moves", None)
            elif b.is_insufficient_material():
                ended = ("insufficient_material", None)
            elif self.plies >= self.max_plies:
                ended = ("max_plies", None)
        if ended is not None:
            self._end(*ended)
            return
        if continues:
            self._set_decision()
        else:
            self._begin_turn()
