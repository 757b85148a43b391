"""Independent reference implementations of the dicechess variants.

Written from docs/rules.md only, deliberately simple and slow.  They
are the oracle the Rust engine is differentially tested against
(tests/rules/test_diff_*.py).  Every reference class exposes the same interface:

    node()              -> "chance" | "decision" | "terminal"
    current_player()    -> 0 / 1 at decision nodes
    chance_outcomes()   -> {name: probability}
    apply_outcome(name)
    legal_moves()       -> set of SAN strings (plus "pass" where allowed)
    apply_move(san)
    termination()       -> None or a termination reason
    returns()           -> [r0, r1] per player
    fen()               -> a human-readable position string (for messages)
    events              -> collections.Counter of rule events seen (for the
                           harness to check that rare rules were exercised)

node(), termination(), returns() and the game-end and repetition bookkeeping
come from base.RefGame; every rule stays in the variant's own module.
tests/reference/harness.py drives a reference and the engine side by side.
"""
