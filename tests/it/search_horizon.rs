//! Wide chance nodes on the horizon (`hcap`, `src/agents/search/horizon.rs`):
//! each roll is valued with its mover's best capture, so a depth-1 search
//! already sees a piece left en prise to the next roll.

use crate::common::{apply_named, search};
use dicechess::agents::search::SearchResult;
use dicechess::variants::dice_chess::DiceChess;
use dicechess::variants::dice_chess3::DiceChess3;
use dicechess::variants::{Game, Options};

fn opts(fen: &str) -> Options {
    let mut o = Options::new();
    o.insert("fen".into(), fen.into());
    o
}

/// Qxd5 wins a pawn on the board, but the knight on f6 takes the queen
/// back whenever Black's roll has a knight or is a double (16 rolls in
/// 36): at depth 1 only the horizon's captures see it.
#[test]
fn dice_chess_depth_one_sees_a_recapture_the_next_roll_may_allow() {
    let mut g = DiceChess::new(&opts("7k/8/5n2/3p4/8/8/8/3Q3K w - - 0 1")).unwrap();
    apply_named(&mut g, "QK");
    let blind = search(&g, "search:depth=1,hcap=0");
    assert_eq!(
        g.san(blind.best),
        "Qxd5",
        "the static horizon takes the pawn"
    );
    let seeing = search(&g, "search:depth=1");
    assert_ne!(g.san(seeing.best), "Qxd5");
    // Taking the pawn is worth less than 100 cp minus 16/36 of a queen.
    assert!(seeing.value > -50.0, "{}", seeing.value);
    assert!(blind.value > 50.0, "{}", blind.value);
}

/// In three-dice DiceChess (no check) a king left where a rolled piece can take it
/// loses at once: with a rook among Black's three dice (91 rolls in 216)
/// the rook on the d-file takes a king on d1 or d2.
#[test]
fn dice_chess3_depth_one_keeps_the_king_off_a_file_a_roll_may_open() {
    let mut g = DiceChess3::new(&opts("3rk3/8/8/8/8/8/8/4K3 w - - 0 1")).unwrap();
    apply_named(&mut g, "PPK");
    let blind = search(&g, "search:depth=1,hcap=0");
    let seeing = search(&g, "search:depth=1");
    let to = |r: &SearchResult| g.san(r.best);
    // Without the horizon's captures the d-file looks as good as any square
    // (the position is one the test must tell apart).
    assert!(
        ["Kd1", "Kd2"].contains(&to(&blind).as_str()),
        "{}",
        to(&blind)
    );
    assert!(
        !["Kd1", "Kd2"].contains(&to(&seeing).as_str()),
        "{}",
        to(&seeing)
    );
}
