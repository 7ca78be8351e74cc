//! `qiju tournament pair --system dutch`, run as the built binary, on the
//! replay corpus of the tournament crate (what bbpPairings v6 printed) and
//! on bad input.

mod common;

use common::qiju;

fn data(name: &str) -> String {
    format!(
        "{}/../tournament/tests/data/dutch/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("qiju-pair-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// The round-5 input of a generated tournament, cut back as the arbiter
/// had it, paired exactly as bbpPairings paired it.
#[test]
fn prints_what_bbpairings_prints() {
    let full = std::fs::read_to_string(data("g05-p25-r7.trf")).unwrap();
    let t = tournament::trf::parse(&full).unwrap();
    let before = tournament::trf::write(&t.before_round(5));
    let path = temp("g05-r5.trf", &before);
    let (rc, out, err) = qiju(&["tournament", "pair", "--system", "dutch", &path]);
    assert_eq!(rc, 0, "{err}");
    let expected = std::fs::read_to_string(data("g05-p25-r7.pairings")).unwrap();
    let round5 = expected
        .split("round 5 exit 0\n")
        .nth(1)
        .unwrap()
        .split("round")
        .next()
        .unwrap();
    assert_eq!(out, round5);
    assert!(out.lines().any(|l| l.ends_with(" 0")), "25 players: a bye\n{out}");
}

#[test]
fn bad_input_names_the_line_with_exit_2() {
    let path = temp("bad.trf", "012 Bad\nXXR 5\n001    1      A                                 2000                             1.0          9 w 1\n");
    let (rc, _, err) = qiju(&["tournament", "pair", "--system", "dutch", &path]);
    assert_eq!(rc, 2);
    assert!(err.contains("line 3"), "{err}");
    let (rc, _, _) = qiju(&["tournament", "pair", "--system", "dutch", "/no/such/file.trf"]);
    assert_eq!(rc, 2);
}

/// Two players who have met: no pairing of round 2 exists.
#[test]
fn impossible_pairing_exits_1() {
    let text = "012 Two\nXXR 3\nXXC white1\n\
001    1      A                                 2000                             1.0          2 w 1\n\
001    2      B                                 1900                             0.0          1 b 0\n";
    let path = temp("two.trf", text);
    let (rc, out, err) = qiju(&["tournament", "pair", "--system", "dutch", &path]);
    assert_eq!(rc, 1, "{out}{err}");
    assert!(err.contains("round 2"), "{err}");
}
