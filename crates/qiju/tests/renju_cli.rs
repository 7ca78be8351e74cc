//! `qiju forbidden` and `qiju moves --game renju|gomoku`, run as the built
//! binary.

mod common;

use common::qiju;

const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b";

/// Black f8 g8 (white d8) and h9 h10, white a15 b15 o1: h8 is a
/// double-three.
const SHAPES: &str = "oo13/15/15/15/15/7x7/7x7/3o1xx8/15/15/15/15/15/15/14o b";

#[test]
fn forbidden_points_one_a_line_in_point_order() {
    let (rc, out, err) = qiju(&["forbidden", "--game", "renju", "--fen", SHAPES]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "h8 double-three\n");
    // Black's forbidden points whoever is to move.
    let white_to_move = SHAPES.replace(" b", " w");
    let (rc, out2, err) = qiju(&["forbidden", "--game", "renju", "--fen", &white_to_move]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out2, out);
    // a2 b2 . d2 e2 f2: c2 is an overline; f8-h8 closed by d8 makes no
    // forbidden point.
    let fen = "15/15/15/15/15/15/15/3o1xxx7/15/15/15/15/15/xx1xxx9/15 b";
    let (rc, out, err) = qiju(&["forbidden", "--game", "renju", "--fen", fen]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "c2 overline\n");
    // Two fours at h8; e6 completes a five and is not listed.
    let fen = "15/15/15/15/7x7/7x7/7x7/4xxx8/15/xxxx11/15/15/15/15/15 b";
    let (rc, out, err) = qiju(&["forbidden", "--game", "renju/rif", "--fen", fen]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "h8 double-four\n");
    // A point forbidden on several counts prints the first of overline,
    // double-four, double-three: h8 joins d8-g8 and i8 into six and makes
    // fours in column h and on the diagonal i9-k11. Points in order:
    // column by column, bottom to top.
    let fen = "15/15/15/15/7x2x4/7x1x5/7xx6/3xxxx1x6/15/15/15/15/15/15/15 b";
    let (rc, out, err) = qiju(&["forbidden", "--game", "renju", "--fen", fen]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(
        out,
        "f9 double-three\ng9 double-three\ng10 double-three\nh8 overline\ni10 double-three\ni11 double-three\n"
    );
    let (rc, out, _) = qiju(&["forbidden", "--game", "renju", "--fen", EMPTY]);
    assert_eq!((rc, out.as_str()), (0, ""));
}

#[test]
fn legal_points() {
    let (rc, out, err) = qiju(&["moves", "--game", "renju", "--fen", EMPTY]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out, "h8\n", "black's first stone goes on the centre");
    let one = "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 w";
    let (rc, out, err) = qiju(&["moves", "--game", "gomoku", "--fen", one]);
    assert_eq!(rc, 0, "{err}");
    let points: Vec<&str> = out.lines().collect();
    assert_eq!(points.len(), 224);
    assert_eq!(&points[..3], ["a1", "a2", "a3"]);
    assert_eq!(points[14], "a15");
    assert_eq!(points[15], "b1");
    assert!(!points.contains(&"h8"));
    // Under renju a forbidden point is still a point black may play (and lose).
    let (rc, out, err) = qiju(&["moves", "--game", "renju", "--fen", SHAPES]);
    assert_eq!(rc, 0, "{err}");
    assert!(out.lines().any(|l| l == "h8"));
    // The office rules: white's first stone on rows 9–15.
    let (rc, out, err) = qiju(&["moves", "--game", "renju/office", "--fen", one]);
    assert_eq!(rc, 0, "{err}");
    assert_eq!(out.lines().count(), 15 * 7);
}

#[test]
fn bad_input_exits_2_with_a_message() {
    for (args, says) in [
        (
            vec![
                "forbidden",
                "--game",
                "renju",
                "--fen",
                "15/15/16/15/15/15/15/15/15/15/15/15/15/15/15 b",
            ],
            "row 13 has 16 columns",
        ),
        (
            vec!["forbidden", "--game", "renju", "--fen", "15/15 b"],
            "has 2 rows",
        ),
        (
            vec![
                "forbidden",
                "--game",
                "renju",
                "--fen",
                "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15",
            ],
            "side to move is missing",
        ),
        (
            vec!["forbidden", "--game", "gomoku", "--fen", EMPTY],
            "no forbidden points",
        ),
        (vec!["forbidden", "--game", "xiangqi", "--fen", EMPTY], "renju"),
        (
            vec!["forbidden", "--game", "renju/swap2", "--fen", EMPTY],
            "no game \"renju/swap2\"",
        ),
        (
            vec![
                "moves",
                "--game",
                "renju",
                "--fen",
                "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 b",
            ],
            "black has 1 and white 0 stones",
        ),
        (
            vec![
                "moves",
                "--game",
                "gomoku",
                "--fen",
                "15/15/15/15/15/15/15/7q7/15/15/15/15/15/15/15 w",
            ],
            "row 8 has 'q'",
        ),
    ] {
        let (rc, out, err) = qiju(&args);
        assert_eq!(rc, 2, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// Runs `qiju gomocup` with `input` on stdin; its stdout lines.
fn brain(level: &str, input: &str) -> Vec<String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_qiju"))
        .args(["gomocup", "--level", level])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn gomocup_protocol() {
    let out = brain(
        "2",
        "START 20\nSTART 15\nABOUT\nINFO timeout_turn 1000\nBEGIN\nTURN 8,8\nFOO\nEND\nTURN 1,1\n",
    );
    assert!(out[0].starts_with("ERROR"), "{out:?}");
    assert_eq!(out[1], "OK");
    assert!(out[2].starts_with("name=\"qiju\""));
    assert_eq!(out[3], "7,7", "black opens on the centre");
    let (x, y) = out[4].split_once(',').unwrap();
    let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < 15 && y < 15 && (x, y) != (7, 7) && (x, y) != (8, 8));
    assert_eq!(out[5], "UNKNOWN FOO");
    assert_eq!(out.len(), 6, "nothing after END");

    // BOARD: it is to move with its own four on row 8 (y = 7): it wins.
    let input = "START 15\nBOARD\n5,7,1\n6,7,1\n7,7,1\n8,7,1\n0,0,2\n0,2,2\n0,4,2\n0,6,2\nDONE\nEND\n";
    let out = brain("1", input);
    assert_eq!(out[0], "OK");
    assert!(out[1] == "4,7" || out[1] == "9,7", "{out:?}");
    // Renju (INFO rule 4): as black it keeps off a forbidden point. Black
    // f8 g8 (white d8) and h9 h10: h8 (7,7) is a double-three.
    let input =
        "START 15\nINFO rule 4\nBOARD\n5,7,1\n6,7,1\n7,6,1\n7,5,1\n3,7,2\n0,0,2\n14,0,2\n0,14,2\nDONE\nEND\n";
    let out = brain("3", input);
    assert_eq!(out[0], "OK");
    assert_ne!(out[1], "7,7", "h8 is forbidden for black");
    // Takeback, and refusals.
    let out = brain(
        "1",
        "START 15\nBEGIN\nTAKEBACK 7,7\nRECTSTART 20,15\nTURN 99,1\nEND\n",
    );
    assert_eq!(
        out[1..],
        [
            "7,7",
            "OK",
            "ERROR qiju plays on 15x15 boards only",
            "ERROR bad coordinates \"99,1\""
        ]
    );
}

/// `INFO timeout_turn` bounds the search: level 5 asked for three quiet
/// opening positions takes about 0.3 s for each unbounded, and answers all
/// three sooner with 100 ms a move.
#[test]
fn gomocup_honours_timeout_turn() {
    let boards = [
        "7,7,2\n8,6,1\n9,8,2",
        "7,7,1\n8,6,2",
        "7,7,2\n8,6,1\n6,8,2\n9,9,1\n7,9,2",
    ];
    let run = |info: &str| {
        let mut input = format!("START 15\n{info}");
        for b in boards {
            input += &format!("RESTART\nBOARD\n{b}\nDONE\n");
        }
        input += "END\n";
        let t = std::time::Instant::now();
        let out = brain("5", &input);
        let took = t.elapsed();
        assert_eq!(out.len(), 7, "{out:?}");
        assert!(
            out[1..].iter().all(|l| l == "OK" || l.split_once(',').is_some()),
            "{out:?}"
        );
        took
    };
    let unbounded = run("");
    let bounded = run("INFO timeout_turn 100\n");
    assert!(bounded < unbounded, "{bounded:?} against {unbounded:?}");
    assert!(bounded < std::time::Duration::from_millis(1500), "{bounded:?}");
}
