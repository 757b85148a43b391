//! Wide chance nodes on the horizon (`hcap`, `src/agents/search/horizon.rs`):
//! each roll is valued with its mover's best capture, so a depth-1 search
//! already sees a piece left en prise to the next roll.

use crate::common::{apply_named, search, walk_random_game};
use dicechess::agents::search::eval::Evaluator;
use dicechess::agents::search::utility::Utility;
use dicechess::agents::search::{Params, SearchResult, MATE};
use dicechess::variants::dice_chess::DiceChess;
use dicechess::variants::dice_chess3::DiceChess3;
use dicechess::variants::random_move_number::RandomMoveNumber;
use dicechess::variants::{Game, Node, Options};

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

/// Decision points of random Random Move Number Chess games (six throws
/// per chance node: expanded on the horizon by default).
fn random_move_number_positions() -> Vec<RandomMoveNumber> {
    let mut out = Vec::new();
    for game in 0..6 {
        let mut g = RandomMoveNumber::new(&Options::new()).unwrap();
        let mut picked = Vec::new();
        walk_random_game(&mut g, 11, game, |s, step| {
            if step % 17 == 16 && matches!(s.node(), Node::Decision(_)) {
                picked.push(s.clone());
            }
        });
        out.extend(picked.into_iter().take(4));
    }
    assert!(out.len() >= 12, "{}", out.len());
    out
}

/// `hexpand` says which horizon chance nodes get a quiescence search per
/// outcome. With none (`hexpand=0`) and `hcap=0` every horizon chance node
/// is valued by its static expectation, which is exactly what
/// `qchance=stop` does: the same moves, values and nodes. With `hcap` on
/// the throws are valued with their captures instead, and expanding the
/// six throws (`hexpand=8`) searches the most nodes. (`qmate=0`: mates
/// are looked for at the horizon's throws but not in `qchance=stop`'s
/// static expectation.)
#[test]
fn hexpand_chooses_which_horizon_chance_nodes_are_searched() {
    let (mut expanded, mut captures) = (0u64, 0u64);
    for g in random_move_number_positions() {
        let stop = search(&g, "search:depth=2,qchance=stop,qmate=0");
        let none = search(&g, "search:depth=2,hexpand=0,hcap=0,qmate=0");
        assert_eq!(
            (stop.best, stop.value, stop.nodes),
            (none.best, none.value, none.nodes),
            "{}",
            g.fen()
        );
        expanded += search(&g, "search:depth=2,hexpand=8").nodes;
        captures += search(&g, "search:depth=2,hexpand=0").nodes;
    }
    assert!(captures < expanded, "{captures} >= {expanded}");
}

/// Random Move Number Chess values its horizon throws with their captures
/// (`hexpand=0`), looks for mates with up to two moves (`qmate=2`) and
/// averages on 1600 cp (`uscale=1600`) unless the spec says otherwise; chess, whose board alone also decides
/// mates, keeps `qmate=0` and the default `hexpand`.
#[test]
fn random_move_number_has_its_own_horizon_and_mate_defaults() {
    use dicechess::variants::chess::Chess;
    for g in random_move_number_positions().iter().take(6) {
        let own = search(g, "search:depth=2");
        let set = search(g, "search:depth=2,hexpand=0,qmate=2,uscale=1600");
        assert_eq!(
            (own.best, own.value, own.nodes),
            (set.best, set.value, set.nodes)
        );
        let old = search(g, "search:depth=2,hexpand=8,qmate=0");
        assert_ne!(own.nodes, old.nodes, "{}", g.fen());
    }
    let c = Chess::new(&opts("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")).unwrap();
    let own = search(&c, "search:depth=2");
    let set = search(&c, "search:depth=2,hexpand=8,qmate=0");
    assert_eq!(
        (own.best, own.value, own.nodes),
        (set.best, set.value, set.nodes)
    );
}

/// A check at the horizon may win the king: the checked player throws a 1
/// (no move, the check stands) and the checker's next throw lets it take
/// the king. Valued with captures (`hexpand=0`), a throw that passes the
/// turn while its thrower is in check is followed by the next throw, so a
/// depth-1 search gives the rook check (without that it played Kf2,
/// valued -72) and values it as the expanded horizon does.
#[test]
fn random_move_number_horizon_follows_a_throw_that_leaves_a_check_standing() {
    let g = RandomMoveNumber::from_fen("7k/6p1/r7/8/8/8/8/1R4K1 w - - 0 1 move 1 0 wb 3 2", 1000)
        .unwrap();
    let captures = search(&g, "search:depth=1,hexpand=0,qmate=0");
    let expanded = search(&g, "search:depth=1,hexpand=8,qmate=0");
    assert_eq!(g.san(captures.best), "Rb8+");
    assert_eq!(g.san(expanded.best), "Rb8+");
    assert!(
        (captures.value - expanded.value).abs() < 10.0,
        "{} vs {}",
        captures.value,
        expanded.value
    );
}

/// Black's rook, cut off from the first rank by its own pawn, mates in two
/// moves (Rc7, then Rc1#), which a throw of two moves allows (a second 2
/// or a 6 after Black's last throw of 2: 1 in 3). With `qmate=2` a
/// depth-1 search sees it at the horizon and gives the king an exit;
/// with mates in one move only, or none, it does not.
#[test]
fn random_move_number_horizon_sees_a_mate_in_the_moves_a_throw_gives() {
    let g = RandomMoveNumber::from_fen(
        "6k1/1r6/8/8/7N/1p6/5PPP/6K1 w - - 0 1 move 1 0 wb 3 2",
        1000,
    )
    .unwrap();
    let exits = ["f3", "f4", "g3", "g4", "h3", "h4"];
    for spec in [
        "search:depth=1,hexpand=0,qmate=0",
        "search:depth=1,hexpand=0,qmate=1",
    ] {
        let r = search(&g, spec);
        assert!(
            !exits.contains(&g.san(r.best).as_str()),
            "{spec}: {}",
            g.san(r.best)
        );
    }
    let seeing = search(&g, "search:depth=1,hexpand=0,qmate=2");
    assert!(
        exits.contains(&g.san(seeing.best).as_str()),
        "{}",
        g.san(seeing.best)
    );
    let blind = search(&g, "search:depth=1,hexpand=0,qmate=0");
    assert!(
        seeing.value < blind.value,
        "{} >= {}",
        seeing.value,
        blind.value
    );
}

/// `mates_in_one` plays only the moves that can give check; debug builds
/// (this test's profile) check it against playing every move. Searches of
/// random Random Move Number positions run it at many stand-pats and
/// horizon throws.
#[test]
fn random_move_number_mate_tests_agree_with_playing_every_move() {
    let mut searched = 0;
    for g in random_move_number_positions() {
        let r = search(&g, "search:nodes=600,qmate=2");
        assert!(r.nodes > 0);
        searched += 1;
    }
    assert!(searched >= 12, "{searched}");
}

/// Three dice give the roller up to three moves, so a king can be lost to
/// two of them: the knight on e5 moves off the e-file and the rook takes
/// (a roll with a knight and a rook), or the knight hops next to the king
/// and takes it (two knights). With `hking` the horizon sees both: of the
/// king's moves only Kd1 and Kf1 stand clear of every two-move capture.
#[test]
fn dice_chess3_depth_one_keeps_the_king_out_of_two_move_captures() {
    let mut g = DiceChess3::new(&opts("4r2k/8/8/4n3/8/8/8/4K3 w - - 0 1")).unwrap();
    apply_named(&mut g, "PPK");
    let blind = search(&g, "search:depth=1,hking=0");
    let seeing = search(&g, "search:depth=1");
    let to = |r: &SearchResult| g.san(r.best);
    assert!(
        !["Kd1", "Kf1"].contains(&to(&blind).as_str()),
        "the one-capture horizon should not tell the squares apart: {}",
        to(&blind)
    );
    assert!(
        ["Kd1", "Kf1"].contains(&to(&seeing).as_str()),
        "{}",
        to(&seeing)
    );
}

/// In the middle of a turn, two dice that take the king in two moves are a
/// won position for quiescence's stand-pat test (`hking`). Here the king
/// falls to three moves: the knight and the bishop leave the e-file, then
/// the rook takes. A depth-1 search plays one of them and its quiescence
/// (captures only) cannot play the other quiet move; with `hking` the
/// stand-pat sees the last two moves.
#[test]
fn dice_chess3_quiescence_sees_a_king_taken_with_the_two_dice_left() {
    let mut g = DiceChess3::new(&opts("4k3/8/8/8/4N3/4B3/8/4R1K1 w - - 0 1")).unwrap();
    apply_named(&mut g, "NBR");
    let seeing = search(&g, "search:depth=1");
    assert!(seeing.value > 90_000.0, "{}", seeing.value);
    let blind = search(&g, "search:depth=1,hking=0");
    assert!(blind.value < 10_000.0, "{}", blind.value);
    // Three plies deep the search finds the capture either way.
    assert!(search(&g, "search:depth=3,hking=0").value > 90_000.0);
}

/// Three-dice DiceChess averages its chance nodes on a flatter utility
/// scale (800 cp, `Evaluate::search_defaults`) unless the spec sets
/// `uscale`, Random Move Number Chess on 1600 cp; Dice Chess keeps the
/// default 400.
#[test]
fn each_variant_averages_with_its_own_utility_scale() {
    let mut g = DiceChess3::new(&opts("4r2k/8/8/4n3/8/8/8/4K3 w - - 0 1")).unwrap();
    apply_named(&mut g, "PPK");
    let own = search(&g, "search:depth=1").value;
    assert_eq!(own, search(&g, "search:depth=1,uscale=800").value);
    assert_ne!(own, search(&g, "search:depth=1,uscale=400").value);
    let mut d = DiceChess::new(&opts("7k/8/5n2/3p4/8/8/8/3Q3K w - - 0 1")).unwrap();
    apply_named(&mut d, "QK");
    let own = search(&d, "search:depth=1").value;
    assert_eq!(own, search(&d, "search:depth=1,uscale=400").value);
    assert_ne!(own, search(&d, "search:depth=1,uscale=800").value);
    // Random Move Number Chess: 1600 cp. White's rook check may win the
    // king when Black throws a 1 (the check stands).
    let r = RandomMoveNumber::from_fen("7k/6p1/r7/8/8/8/8/1R4K1 w - - 0 1 move 1 0 wb 3 2", 1000)
        .unwrap();
    let own = search(&r, "search:depth=1").value;
    assert_eq!(own, search(&r, "search:depth=1,uscale=1600").value);
    assert_ne!(own, search(&r, "search:depth=1,uscale=400").value);
}

/// `king_in_two` reads the board after each first move from the moved
/// piece and the new occupancy; debug builds (this test's profile) check
/// it against playing every move on a copy at each call. Searches from
/// random positions of three-dice games run it at many horizons and
/// stand-pats (a wrong role for the moved piece fails here).
#[test]
fn dice_chess3_two_move_threats_agree_with_playing_each_move() {
    let mut searched = 0;
    for game in 0..8 {
        let mut g = DiceChess3::new(&Options::new()).unwrap();
        let mut picked = Vec::new();
        walk_random_game(&mut g, 23, game, |s, step| {
            if step % 9 == 4 && matches!(s.node(), Node::Decision(_)) {
                picked.push(s.clone());
            }
        });
        for s in picked.iter().take(5) {
            let r = search(s, "search:nodes=400");
            assert!(r.nodes > 0);
            searched += 1;
        }
    }
    assert!(searched >= 30, "{searched}");
}

/// Dice Chess: a check that only the king can answer passes the turn on
/// every roll without a king or a double (20 rolls in 36), and the checker
/// then takes the king on its rolls with a queen or a double (16 in 36).
/// With `hcheck` a depth-1 search values the queen's check on the horizon
/// by that chance (about 0.25 of a won game); without it the check is
/// worth no more than the board.
#[test]
fn dice_chess_depth_one_values_a_check_by_the_pass_and_king_capture_it_allows() {
    let mut g = DiceChess::new(&opts("r3k3/p7/8/8/8/8/8/3QK3 w - - 0 1")).unwrap();
    apply_named(&mut g, "QK");
    let blind = search(&g, "search:depth=1,hcheck=0");
    let seeing = search(&g, "search:depth=1");
    assert_eq!(g.san(seeing.best), "Qe2+");
    assert_ne!(g.san(blind.best), "Qe2+");
    // The check's value: the board `b` on every roll but the passes, and
    // on those the king (a win, counted 4 plies from the root as the
    // horizon counts a pass and a roll) or the board again, averaged in
    // utility.
    let mut after = g.clone();
    after.play(seeing.best);
    // Dice Chess evaluates with chess's structure terms (since 2026-12-04),
    // the optional ones and their weights as the defaults say.
    let mut e = Evaluator::with_set(Params::default().weights);
    e.set_structure(true);
    e.set_terms(Params::default().structure_terms());
    let b = e.static_value(&after, 0);
    let u = Utility::new(400.0);
    let win = u.utility(MATE - 4.0);
    let passed = 16.0 / 36.0 * win + 20.0 / 36.0 * u.utility(b);
    let want = u.centipawns(16.0 / 36.0 * u.utility(b) + 20.0 / 36.0 * passed);
    assert!(
        (seeing.value - want).abs() < 1e-6,
        "{} != {want}",
        seeing.value
    );
    assert!(
        seeing.value > blind.value,
        "{} {}",
        seeing.value,
        blind.value
    );
}
