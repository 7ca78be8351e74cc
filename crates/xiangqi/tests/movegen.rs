//! Move-generation rules one by one, and the invariants of make/undo on
//! random games.

use xiangqi::{Color, Move, Piece, Position, Role, Square};

fn sq(s: &str) -> Square {
    Square::from_iccs(s).unwrap()
}

fn mv(s: &str) -> Move {
    Move::new(sq(&s[..2]), sq(&s[2..]))
}

fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from() == sq(from))
        .map(|m| m.to().to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn horse_leg_blocks_蹩马腿() {
    // A black rook on b1 stands on the leg of the red horse b0 towards a2
    // and c2; only d1 (leg c0) is left.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/1r7/1N2K4 w").unwrap();
    assert_eq!(moves_from(&pos, "b0"), ["d1"]);
}

#[test]
fn elephant_eye_blocks_塞象眼_and_the_river_stops_it() {
    // A black pawn (crossed the river) on d3 blocks the c4 elephant's way to e2.
    let pos = Position::from_fen("3k5/9/9/9/9/2B6/3p5/9/9/4K4 w").unwrap();
    assert_eq!(moves_from(&pos, "c4"), ["a2"]);
    assert!(
        Position::from_fen("3k5/9/9/9/9/4B4/9/9/9/4K4 w").is_err(),
        "e4 is not an elephant point"
    );
    let pos = Position::from_fen("3k5/9/9/9/9/6B2/9/9/9/4K4 w").unwrap();
    assert_eq!(moves_from(&pos, "g4"), ["e2", "i2"], "never across the river");
}

#[test]
fn cannon_needs_exactly_one_screen() {
    // Red cannon c2; black pawn c5 is the screen, black rooks c7 and c9.
    let pos = Position::from_fen("2rk5/9/2r6/9/2p6/9/9/2C6/9/4K4 w").unwrap();
    let m = moves_from(&pos, "c2");
    assert!(m.contains(&"c7".to_string()), "capture over one screen: {m:?}");
    assert!(!m.contains(&"c5".to_string()), "cannot capture the screen");
    assert!(!m.contains(&"c9".to_string()), "two screens");
    assert!(m.contains(&"c4".to_string()) && m.contains(&"a2".to_string()));
}

#[test]
fn flying_general_is_illegal_飞将() {
    // The red cannon on e5 is the only piece between the kings: it may move
    // along the file but not off it.
    let pos = Position::from_fen("4k4/9/9/9/4C4/9/9/9/9/4K4 w").unwrap();
    assert_eq!(moves_from(&pos, "e5"), ["e1", "e2", "e3", "e4", "e6", "e7", "e8"]);
    // A king may not step onto an open file facing the other king.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
    assert!(!pos.is_legal(mv("e0d0")));
    assert!(pos.is_legal(mv("e0e1")));
}

#[test]
fn moving_a_screen_onto_the_line_gives_the_cannon_a_check() {
    // Black cannon e7 faces the red king e0 with nothing between: a red
    // rook may not step onto the e-file between them.
    let pos = Position::from_fen("3k5/9/4c4/9/9/9/9/9/R8/4K4 w").unwrap();
    assert!(!pos.is_legal(mv("a1e1")));
    assert!(pos.is_legal(mv("a1b1")));
    // With one screen already there, taking it away exposes nothing, but
    // the king is already in check... construct two screens: removing one
    // is illegal.
    let pos = Position::from_fen("3k5/9/4c4/9/4P4/9/9/9/4R4/4K4 w").unwrap();
    assert!(!pos.is_legal(mv("e1d1")), "the rook is one of two screens");
    assert!(pos.is_legal(mv("e1e2")), "staying on the file keeps two screens");
}

#[test]
fn stalemate_loses_困毙() {
    // Black king d9 cannot move and black has nothing else, not in check.
    // Black king d9: d8 is covered by the a8 rook, e9 by the e7 rook.
    let pos = Position::from_fen("3k5/R8/4R4/9/9/9/9/9/9/4K4 b").unwrap();
    assert!(!pos.is_check());
    assert_eq!(pos.count_legal_moves(), 0);
    assert_eq!(
        pos.outcome(),
        Some(game::Outcome::Win {
            winner: game::Side::First
        })
    );
}

#[test]
fn checkmate() {
    // Double rook mate on the back rank.
    let pos = Position::from_fen("3k5/R8/3R5/9/9/9/9/9/9/4K4 b").unwrap_or_else(|e| panic!("{e}"));
    assert!(pos.is_check());
    assert_eq!(pos.count_legal_moves(), 0);
}

/// A tiny deterministic generator, so the test needs no extra crate.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

#[test]
fn random_games_keep_every_view_consistent() {
    let mut rng = Lcg(7);
    let mut positions = 0;
    // QIJU_STRESS=N plays N games instead (a longer local run).
    let games = std::env::var("QIJU_STRESS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    for _ in 0..games {
        let mut pos = Position::startpos();
        let mut played = Vec::new();
        for _ in 0..150 {
            let moves = pos.legal_moves();
            assert_eq!(moves.len() as u64, pos.count_legal_moves());
            // Every generated move is legal; every pseudo move not generated is not.
            for (from, piece) in pos
                .pieces_iter()
                .filter(|(_, p)| p.color == pos.turn())
                .collect::<Vec<_>>()
            {
                for to in pos.pseudo_targets(from, piece) {
                    let m = Move::new(from, to);
                    let legal = moves.contains(&m);
                    assert_eq!(legal, pos.is_legal(m), "{m} in {}", pos.fen());
                    if legal {
                        let mut after = pos.clone();
                        after.play_unchecked(m);
                        assert!(
                            !after.is_attacked_king(pos.turn()),
                            "{m} leaves the king attacked"
                        );
                    }
                }
            }
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next() as usize) % moves.len()];
            let before = pos.clone();
            let undo = pos.play_unchecked(m);
            assert!(pos.is_consistent(), "after {m}: {}", pos.fen());
            assert_eq!(Position::from_fen(&pos.fen()).unwrap().key(), pos.key());
            let mut back = pos.clone();
            back.undo(m, undo);
            assert_eq!(back, before);
            played.push(m);
            positions += 1;
        }
    }
    assert!(positions > 10_000);
}

#[test]
fn play_refuses_illegal_moves_and_changes_nothing() {
    let mut pos = Position::startpos();
    let before = pos.clone();
    assert!(
        pos.play(mv("h2h7")).is_err(),
        "a cannon cannot capture without a screen"
    );
    assert!(pos.play(mv("a6a5")).is_err(), "black piece on red's turn");
    assert!(pos.play(mv("e4e5")).is_err(), "empty square");
    assert_eq!(pos, before);
    assert!(pos.play(mv("h2e2")).is_ok());
    assert_eq!(pos.piece_at(sq("e2")), Some(Piece::new(Color::Red, Role::Cannon)));
}

#[test]
fn an_enemy_cannon_can_be_the_screen_of_another() {
    // Found by the random-game test: black king e9, red cannons f9 and h9,
    // black elephant g9 between them. Moving the elephant lets h9 check over
    // the f9 cannon, so g9e7 is illegal.
    let pos =
        Position::from_fen("4kCbC1/9/b8/p1p3p1n/P2R4P/4p4/2P1P1r2/7r1/4KR3/1NBA1A3 b - - 4 43").unwrap();
    assert!(!pos.is_legal(mv("g9e7")));
    assert!(!pos.legal_moves().contains(&mv("g9e7")));
}

/// The attackers of one square during an exchange, as
/// `exchange_attackers` works them out on the position before it (the
/// capturers' origins taken off the board), equal those found by really
/// playing the captures and asking which pieces' moves reach the square.
#[test]
fn exchange_attackers_match_the_captures_really_played() {
    use xiangqi::Bitboard;
    let mut rng = Lcg(99);
    let mut checked = 0;
    for _ in 0..150 {
        let mut pos = Position::startpos();
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // From this position, play out exchanges on a few squares.
            for _ in 0..3 {
                let captures: Vec<Move> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
                if captures.is_empty() {
                    break;
                }
                let target = captures[(rng.next() as usize) % captures.len()].to();
                let mut now = pos.clone();
                let mut removed = Bitboard::default();
                loop {
                    let turn = now.turn();
                    let reached: Vec<Square> = now
                        .pieces_iter()
                        .filter(|&(from, p)| p.color == turn && now.pseudo_targets(from, p).contains(target))
                        .map(|(from, _)| from)
                        .collect();
                    let mut predicted: Vec<Square> =
                        (pos.exchange_attackers(target, removed) & pos.by_color(turn)).collect();
                    let mut reached_sorted = reached.clone();
                    reached_sorted.sort();
                    predicted.sort();
                    assert_eq!(
                        predicted,
                        reached_sorted,
                        "{} to move in {} (from {}), square {target}",
                        turn,
                        now.fen(),
                        pos.fen()
                    );
                    checked += 1;
                    if reached.is_empty() || now.piece_at(target).is_some_and(|p| p.role == Role::King) {
                        break;
                    }
                    let from = reached[(rng.next() as usize) % reached.len()];
                    now.play_unchecked(Move::new(from, target));
                    removed.set(from);
                }
            }
            pos.play_unchecked(moves[(rng.next() as usize) % moves.len()]);
        }
    }
    assert!(checked > 5_000, "{checked}");
}

/// What a piece bears on (`attacks_from`) is, on enemy pieces, exactly its
/// captures, and on its own pieces exactly the squares where it would
/// recapture — i.e. it is one of `exchange_attackers` of that square.
#[test]
fn attacks_from_are_captures_and_defences() {
    let mut rng = Lcg(7);
    let mut checked = 0;
    for _ in 0..100 {
        let mut pos = Position::startpos();
        for _ in 0..100 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for (from, p) in pos.pieces_iter() {
                let a = pos.attacks_from(from, p);
                let enemy = pos.by_color(p.color.other());
                assert_eq!(
                    a & enemy,
                    pos.pseudo_targets(from, p) & enemy,
                    "{p:?} on {from} in {}",
                    pos.fen()
                );
                for sq in pos.by_color(p.color) {
                    let defends = pos
                        .exchange_attackers(sq, xiangqi::Bitboard::default())
                        .contains(from);
                    assert_eq!(
                        a.contains(sq),
                        defends,
                        "{p:?} on {from} defending {sq} in {}",
                        pos.fen()
                    );
                    checked += 1;
                }
            }
            pos.play_unchecked(moves[(rng.next() as usize) % moves.len()]);
        }
    }
    assert!(checked > 100_000, "{checked}");
}

/// `attack_squares_to` agrees with the pieces' own moves: an enemy rook,
/// horse or cannon put on one of those squares (by editing the board)
/// attacks the king of the side to move, and on no other empty square.
#[test]
fn attack_squares_to_are_where_a_piece_would_attack_from() {
    use xiangqi::{Piece, Setup};
    let mut rng = Lcg(5);
    let (mut checked, mut hits) = (0, 0);
    for _ in 0..120 {
        let mut pos = Position::startpos();
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[(rng.next() as usize) % moves.len()]);
        }
        let target = pos.king(pos.turn());
        for role in [Role::Rook, Role::Horse, Role::Cannon] {
            let squares = pos.attack_squares_to(target, role);
            for from in Square::all() {
                if pos.piece_at(from).is_some() {
                    // Occupied squares count as reachable only for a capture,
                    // which the empty-square check below already covers.
                    continue;
                }
                let mut setup = Setup::from_fen(&pos.fen()).unwrap();
                let piece = Piece::new(pos.turn().other(), role);
                setup.board[from.index()] = Some(piece);
                let Ok(edited) = Position::from_setup(&setup) else {
                    continue;
                };
                let attacks = edited.pseudo_targets(from, piece).contains(target);
                assert_eq!(
                    squares.contains(from),
                    attacks,
                    "{role:?} on {from} to {target} in {}",
                    pos.fen()
                );
                checked += 1;
                hits += usize::from(attacks);
            }
        }
    }
    assert!(checked > 1_000 && hits > 200, "{checked} {hits}");
}
