//! The Rust integration tests: one crate (one link step), one module per
//! area, shared helpers in `common` and the suite every variant runs in
//! `conformance`.

mod agents;
mod chess_rules;
mod common;
mod conformance;
mod cubic;
mod cubic_checkers;
mod dice_chess;
mod dice_chess3;
mod dice_chess3_sampling;
mod dice_play;
mod episode;
mod fen_fuzz;
mod fluky;
mod gardner;
mod gardner_draw;
mod hardening;
mod hardening3;
mod luck;
mod luck_option;
mod mcts;
mod new_variants_fuzz;
mod options_fuzz;
mod paired;
mod parse_fuzz;
mod perft;
mod random_move_number;
mod search;
mod search_hooks;
mod search_horizon;
mod search_merge;
mod shakmaty_diff;
mod texel;
mod vecenv;
mod vegas;
