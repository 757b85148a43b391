"""SAN for the 8x8 variants, written to match python-chess's output.

``san_body`` writes a move without its check suffix; disambiguation is done
against the *variant's* list of legal moves (python-chess disambiguates
against orthodox legal moves, which differs e.g. for RMNC king captures).
"""

import chess


def san_body(board: chess.Board, move: chess.Move, legal_moves) -> str:
    """SAN of ``move`` without +/#, disambiguated over ``legal_moves``."""
    if board.is_castling(move):
        if chess.square_file(move.to_square) < chess.square_file(move.from_square):
            return "O-O-O"
        return "O-O"
    piece_type = board.piece_type_at(move.from_square)
    capture = board.is_capture(move)
    if piece_type == chess.PAWN:
        san = chess.FILE_NAMES[chess.square_file(move.from_square)] if capture else ""
    else:
        san = chess.piece_symbol(piece_type).upper()
        others = [
            m.from_square
            for m in legal_moves
            if m.to_square == move.to_square
            and m.from_square != move.from_square
            and board.piece_type_at(m.from_square) == piece_type
        ]
        if others:
            from_file = chess.square_file(move.from_square)
            from_rank = chess.square_rank(move.from_square)
            column = any(chess.square_rank(s) == from_rank for s in others)
            row = any(chess.square_file(s) == from_file for s in others)
            if not row:
                column = True
            if column:
                san += chess.FILE_NAMES[from_file]
            if row:
                san += chess.RANK_NAMES[from_rank]
    if capture:
        san += "x"
    san += chess.SQUARE_NAMES[move.to_square]
    if move.promotion:
        san += "=" + chess.piece_symbol(move.promotion).upper()
    return san


def piece_letter(board: chess.Board, square: int) -> str:
    """Upper-case letter of the piece on ``square`` (``P`` for pawns)."""
    return chess.piece_symbol(board.piece_type_at(square)).upper()
