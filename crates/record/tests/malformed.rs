//! Hand-written malformed files: each problem is reported with the game,
//! the move and the reason, and the good games around it still import.

use record::{read_pgn, RecordError};

fn read(name: &str) -> Vec<record::Parsed> {
    let path = format!("{}/tests/data/malformed/{name}", env!("CARGO_MANIFEST_DIR"));
    read_pgn(&std::fs::read_to_string(path).unwrap())
}

#[test]
fn an_illegal_move_is_named_with_game_and_move_number() {
    let g = read("illegal-move.pgn");
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].record.as_ref().unwrap().moves.len(), 4);
    let e = g[1].record.as_ref().unwrap_err();
    assert!(
        matches!(
            e,
            RecordError::IllegalMove {
                game: 2,
                ply: 3,
                line: 13,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "game 2, move 2. \"a0a5\" (line 13): illegal: \"a0a5\" is not a legal move here: the rook on a0 cannot move to a5"
    );
}

#[test]
fn an_unreadable_move() {
    let g = read("unreadable-move.pgn");
    let e = g[0].record.as_ref().unwrap_err();
    assert!(
        matches!(e, RecordError::UnreadableMove { game: 1, ply: 4, .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("move 2... \"Q9=8\""), "{e}");
}

#[test]
fn a_missing_result_does_not_swallow_the_next_game() {
    let g = read("missing-result.pgn");
    assert_eq!(g.len(), 2);
    assert!(
        matches!(g[0].record, Err(RecordError::MissingResult { game: 1, line: 5 })),
        "{:?}",
        g[0].record
    );
    assert_eq!(g[1].record.as_ref().unwrap().moves.len(), 1);
    assert_eq!(g[1].line, 7);
}

#[test]
fn broken_tags() {
    let g = read("broken-tags.pgn");
    assert_eq!(g.len(), 3);
    for (i, (parsed, line)) in g.iter().zip([2, 7, 12]).enumerate() {
        match &parsed.record {
            Err(RecordError::Syntax {
                game,
                line: l,
                detail,
            }) => {
                assert_eq!((*game, *l), (i + 1, line), "{detail}");
            }
            other => panic!("game {}: {other:?}", i + 1),
        }
    }
}

#[test]
fn bad_fens() {
    let g = read("bad-fen.pgn");
    assert_eq!(g.len(), 2);
    for (i, p) in g.iter().enumerate() {
        let e = p.record.as_ref().unwrap_err();
        assert!(
            matches!(e, RecordError::BadFen { game, .. } if *game == i + 1),
            "{e:?}"
        );
    }
}
