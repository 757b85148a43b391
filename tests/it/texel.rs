//! The search evaluation is linear in its weights: the features of
//! `eval::features` times the weights give the evaluator's static value.

use crate::common::walk_random_game;
use dicechess::agents::eval::Evaluate;
use dicechess::agents::search::eval::features::{eval_features, feature_names, NUM_FEATURES};
use dicechess::agents::search::eval::structure::{structure_cp_with, structure_features, Terms};
use dicechess::agents::search::eval::structure_weights::{StructureWeights, FITTED, HAND};
use dicechess::agents::search::eval::tuned::WeightSet;
use dicechess::agents::search::eval::{Evaluator, Weights, WEIGHTS};
use dicechess::board::Color;
use dicechess::variants::chess::Chess;
use dicechess::variants::{AnyGame, Game, Node, Options, VARIANTS};
use dicechess::with_game;

/// Checks `features · w + offset == static value for White` on every
/// decision and chance node of a few random games of `g`'s variant.
fn check<G: Evaluate>(start: &G, w: &Weights) -> usize {
    let mut eval = Evaluator::new(w.clone());
    let wv = w.to_vec();
    let mut checked = 0;
    for index in 0..4 {
        let mut g = start.clone();
        walk_random_game(&mut g, 11, index, |s, _| {
            if matches!(s.node(), Node::Terminal) {
                return;
            }
            let white = (0..2).find(|&p| s.color_of(p) == Color::White).unwrap();
            let (x, offset) = eval_features(s);
            let lin: f64 = x.iter().zip(&wv).map(|(a, b)| a * b).sum::<f64>() + offset;
            let v = eval.static_value(s, white);
            assert!(
                (lin - v).abs() <= 1e-9 * (1.0 + v.abs()),
                "{}: features give {lin}, evaluator {v}",
                s.variant()
            );
            checked += 1;
        });
    }
    checked
}

/// Arbitrary weights (every one non-zero, pawn and king mobility too).
fn random_weights(seed: u64) -> Weights {
    let mut state = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut r6 = |scale: f64| {
        std::array::from_fn(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            scale * ((state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0)
        })
    };
    Weights {
        mg_value: r6(1000.0),
        eg_value: r6(1000.0),
        mg_center: r6(20.0),
        eg_center: r6(20.0),
        mg_advance: r6(20.0),
        eg_advance: r6(20.0),
        mg_mobility: r6(10.0),
        eg_mobility: r6(10.0),
        bishop_pair: 37.0,
        tempo: -13.0,
    }
}

#[test]
fn features_times_weights_is_the_static_value() {
    for (k, v) in VARIANTS.iter().enumerate() {
        let g = AnyGame::new(v, &Options::new()).unwrap();
        let n = with_game!(&g, x => check(x, &WEIGHTS) + check(x, &random_weights(k as u64)));
        assert!(n > 100, "{v}: only {n} states checked");
    }
}

#[test]
fn names_match_the_weight_vector() {
    let names = feature_names();
    assert_eq!(names.len(), NUM_FEATURES);
    assert_eq!(WEIGHTS.to_vec().len(), NUM_FEATURES);
    assert_eq!(names[1], "mg_value.knight");
    assert_eq!(WEIGHTS.to_vec()[1], WEIGHTS.mg_value[1]);
    assert_eq!(names[48], "bishop_pair");
    assert_eq!(WEIGHTS.to_vec()[49], WEIGHTS.tempo);
}

#[test]
fn weight_sets_pick_weights_by_board_size() {
    use dicechess::agents::search::eval::tuned::{FITTED_CHESS, TUNED_5X5, TUNED_8X8};
    assert_eq!(WeightSet::Default.weights(8, 8), WEIGHTS);
    assert_eq!(WeightSet::Fitted.weights(8, 8), FITTED_CHESS);
    assert_eq!(WeightSet::Fitted.weights(5, 5), TUNED_5X5);
    assert_ne!(FITTED_CHESS, WEIGHTS);
    for set in ["default", "hand", "tuned", "fitted"] {
        assert_eq!(WeightSet::parse(set).unwrap().name(), set);
    }
    assert!(WeightSet::parse("chess").is_err());
    assert_eq!(WeightSet::Default.weights(5, 5), TUNED_5X5);
    assert_eq!(WeightSet::Hand.weights(5, 5), WEIGHTS);
    assert_eq!(WeightSet::Tuned.weights(8, 8), TUNED_8X8);
    // An evaluator of a set values a 5x5 and an 8x8 board with that set's
    // weights for each.
    for (variant, set, w) in [
        ("fluky", WeightSet::Default, TUNED_5X5),
        ("chess", WeightSet::Default, WEIGHTS),
        ("gardner", WeightSet::Hand, WEIGHTS),
        ("vegas", WeightSet::Tuned, TUNED_8X8),
        ("chess", WeightSet::Fitted, FITTED_CHESS),
    ] {
        let g = AnyGame::new(variant, &Options::new()).unwrap();
        with_game!(&g, x => {
            let mut e = Evaluator::with_set(set);
            let mut fixed = Evaluator::new(w.clone());
            walk_random_game(&mut x.clone(), 5, 0, |s, _| {
                if !matches!(s.node(), Node::Terminal) {
                    assert_eq!(e.static_value(s, 0), fixed.static_value(s, 0), "{variant}");
                }
            });
        });
    }
}

/// Every structure term on, with the hand-set or the fitted weights.
fn all_terms(fitted: bool) -> Terms {
    Terms {
        fitted,
        ..Terms::ALL_HAND
    }
}

#[test]
fn structure_features_times_structure_weights_is_the_structure_value() {
    // Arbitrary weights, every one non-zero.
    let n = StructureWeights::names().len();
    let odd: Vec<f64> = (0..n).map(|j| ((j * 37) % 23) as f64 - 11.5).collect();
    let odd = StructureWeights::from_slice(&odd).unwrap();
    let mut g = Chess::new(&Options::new()).unwrap();
    let mut checked = 0;
    for index in 0..6 {
        walk_random_game(&mut g.clone(), 13, index, |s, _| {
            let p = s.position();
            for terms in [all_terms(false), Terms::default()] {
                let x = structure_features(p, terms);
                for w in [HAND, odd] {
                    let lin: f64 = x.iter().zip(w.to_vec()).map(|(a, b)| a * b).sum();
                    let v = structure_cp_with(p, terms, &w);
                    assert!((lin - v).abs() <= 1e-9 * (1.0 + v.abs()), "{lin} {v}");
                }
            }
            checked += 1;
        });
    }
    assert!(checked > 300, "{checked}");
    g = Chess::new(&Options::new()).unwrap();
    // The start position: symmetric, so every coefficient is zero.
    assert!(structure_features(g.position(), all_terms(false))
        .iter()
        .all(|&x| x == 0.0));
}

#[test]
fn the_search_evaluator_counts_the_fitted_structure_weights() {
    // The static value with the fitted weights less that with the hand-set
    // ones is the features times the weights' difference, as the fit assumes.
    let diff: Vec<f64> = FITTED
        .to_vec()
        .iter()
        .zip(HAND.to_vec())
        .map(|(f, h)| f - h)
        .collect();
    let mut evals = [false, true].map(|fitted| {
        let mut e = Evaluator::with_set(WeightSet::Default);
        e.set_structure(true);
        e.set_terms(all_terms(fitted));
        e
    });
    let mut checked = 0;
    walk_random_game(&mut Chess::new(&Options::new()).unwrap(), 17, 0, |s, _| {
        if matches!(s.node(), Node::Terminal) {
            return;
        }
        let [hand, fitted] = evals.each_mut().map(|e| e.static_value(s, 0));
        let x = structure_features(s.position(), all_terms(false));
        let want: f64 = x.iter().zip(&diff).map(|(a, b)| a * b).sum();
        assert!(
            (fitted - hand - want).abs() < 1e-6,
            "{fitted} {hand} {want}"
        );
        checked += 1;
    });
    assert!(checked > 20, "{checked}");
}

#[test]
fn base_features_give_the_change_of_chess_defaults_static_value() {
    // `scripts/texel_chess.py --what base` fits the base weights on top
    // of the chess defaults (per-square corrections and every structure
    // term on): their static value must move by the features times the
    // weights' change.
    let other = random_weights(5);
    let diff: Vec<f64> = other
        .to_vec()
        .iter()
        .zip(WEIGHTS.to_vec())
        .map(|(a, b)| a - b)
        .collect();
    let mut evals = [WEIGHTS, other].map(|w| {
        let mut e = Evaluator::new(w);
        e.set_structure(true);
        e.set_pst(true);
        e.set_terms(all_terms(false));
        e
    });
    let mut checked = 0;
    for index in 0..3 {
        walk_random_game(
            &mut Chess::new(&Options::new()).unwrap(),
            19,
            index,
            |s, _| {
                if matches!(s.node(), Node::Terminal) {
                    return;
                }
                let [hand, changed] = evals.each_mut().map(|e| e.static_value(s, 0));
                let x = eval_features(s).0;
                let want: f64 = x.iter().zip(&diff).map(|(a, b)| a * b).sum();
                assert!(
                    (changed - hand - want).abs() <= 1e-6 * (1.0 + want.abs()),
                    "{changed} {hand} {want}"
                );
                checked += 1;
            },
        );
    }
    assert!(checked > 60, "{checked}");
}
