//! `qiju tournament berger` and `qiju tournament standings`, run as the
//! built binary: the Berger tables against FIDE's (the typed copy in the
//! tournament crate's test data), standings on a cross-checked TRF file and
//! on a round robin ranked by CXA 15.1, and bad input.

mod common;

use common::qiju;

fn tournament_data(name: &str) -> String {
    format!("{}/../tournament/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// FIDE's table for `size` (4, 6, … 16) as `(round, white, black)`.
fn fide_table(size: u32) -> Vec<(u32, u32, u32)> {
    let text = std::fs::read_to_string(tournament_data("roundrobin/fide_berger_tables.txt")).unwrap();
    let mut out = Vec::new();
    let mut current = 0;
    for line in text.lines() {
        if let Some(head) = line.strip_suffix(" players:") {
            current = head.split(" or ").nth(1).unwrap().parse().unwrap();
        } else if let Some(rest) = line.strip_prefix("Rd ") {
            if current != size {
                continue;
            }
            let (round, games) = rest.split_once(": ").unwrap();
            for g in games.trim_end_matches('.').split(", ") {
                let (w, b) = g.split_once('-').unwrap();
                out.push((round.parse().unwrap(), w.parse().unwrap(), b.parse().unwrap()));
            }
        }
    }
    out
}

#[test]
fn berger_prints_fides_tables_with_byes() {
    for players in [3u32, 7, 10, 15, 16] {
        let n = players.to_string();
        let (rc, out, err) = qiju(&["tournament", "berger", "--players", &n]);
        assert_eq!(rc, 0, "{err}");
        let size = players + players % 2;
        let expected: Vec<String> = fide_table(size)
            .into_iter()
            .map(|(r, w, b)| {
                if w > players {
                    format!("{r} {b} 0")
                } else if b > players {
                    format!("{r} {w} 0")
                } else {
                    format!("{r} {w} {b}")
                }
            })
            .collect();
        let got: Vec<&str> = out.lines().collect();
        assert_eq!(got, expected, "{players} players");
    }
}

#[test]
fn berger_double_round_robin() {
    let (rc, out, err) = qiju(&["tournament", "berger", "--players", "4", "--double"]);
    assert_eq!(rc, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // Rounds 2 and 3 of the table swapped, then the table reversed.
    assert_eq!(
        lines,
        vec![
            "1 1 4", "1 2 3", "2 2 4", "2 3 1", "3 4 3", "3 1 2", "4 4 1", "4 3 2", "5 3 4", "5 2 1",
            "6 4 2", "6 1 3"
        ]
    );
}

#[test]
fn berger_refuses_an_impossible_table() {
    let (rc, _, err) = qiju(&["tournament", "berger", "--players", "1"]);
    assert_eq!(rc, 2);
    assert!(err.contains("at least 2 players"), "{err}");
}

#[test]
fn standings_print_the_cross_checked_values() {
    let file = tournament_data("tiebreak/cc_00.trf");
    let (rc, out, err) = qiju(&["tournament", "standings", &file, "--tiebreaks", "BH,BH-C1,SB,PS"]);
    assert_eq!(rc, 0, "{err}");
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    assert_eq!(
        header,
        vec!["RANK", "NO", "NAME", "PTS", "BH", "BH-C1", "SB", "PS"]
    );
    // Player 1's values from tiebreak-core (expected.tsv): 1250 1100 325 700.
    let row = out
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("1"))
        .unwrap();
    let f: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&f[f.len() - 5..], &["1.5", "12.50", "11.00", "3.25", "7.00"]);
    // Points never go up down the table.
    let points: Vec<f64> = lines
        .map(|l| l.split_whitespace().rev().nth(4).unwrap().parse().unwrap())
        .collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]));
}

/// A four-player round robin: 1 beat 2, 2 beat 3, 3 beat 1, everyone drew
/// with 4. CXA 15.1: 小分 all 2.25, 胜局 puts 4 last, 直胜 and 犯规 leave
/// 1–3 tied: they share first place, or need a play-off for it (15.6).
const CYCLE: &str = "012 Cycle
XXR 3
001    1      One                                                                1.5          2 w 1     4 b =     3 b 0
001    2      Two                                                                1.5          1 b 0     3 w 1     4 w =
001    3      Three                                                              1.5          4 w =     2 b 0     1 w 1
001    4      Four                                                               1.5          3 b =     1 w =     2 b =
";

#[test]
fn standings_share_places_and_ask_for_playoffs() {
    let path = std::env::temp_dir().join(format!("qiju-cycle-{}.trf", std::process::id()));
    std::fs::write(&path, CYCLE).unwrap();
    let file = path.to_str().unwrap();
    let (rc, out, err) = qiju(&[
        "tournament",
        "standings",
        file,
        "--tiebreaks",
        "cxa-rr",
        "--system",
        "round-robin",
    ]);
    assert_eq!(rc, 0, "{err}");
    let ranks: Vec<(String, String)> = out
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f[1].to_string())
        })
        .collect();
    let want = [("1=", "1"), ("1=", "2"), ("1=", "3"), ("4", "4")];
    assert_eq!(
        ranks,
        want.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect::<Vec<_>>()
    );
    let (rc, out, _) = qiju(&[
        "tournament",
        "standings",
        file,
        "--tiebreaks",
        "cxa-rr",
        "--system",
        "round-robin",
        "--playoff-places",
        "1",
    ]);
    assert_eq!(rc, 0);
    assert!(out.ends_with("playoff: 1 2 3\n"), "{out}");
    // Fouls (犯规) split the tie; a warning puts a player last among equals.
    let (rc, out, err) = qiju(&[
        "tournament",
        "standings",
        file,
        "--tiebreaks",
        "cxa-rr",
        "--system",
        "round-robin",
        "--fouls",
        "2=1,3=2",
        "--warnings",
        "4=1",
    ]);
    assert_eq!(rc, 0, "{err}");
    let ids: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(ids, vec!["1", "2", "3", "4"]);
    let (rc, _, err) = qiju(&["tournament", "standings", file, "--fouls", "9=1"]);
    assert_eq!(rc, 2);
    assert!(err.contains("no player 9"), "{err}");
    std::fs::remove_file(&path).ok();
}

#[test]
fn standings_bad_input_is_exit_2_with_a_message() {
    let file = tournament_data("tiebreak/cc_00.trf");
    let (rc, _, err) = qiju(&["tournament", "standings", &file, "--tiebreaks", "BH,XX"]);
    assert_eq!(rc, 2);
    assert!(err.contains("unknown tie-break \"XX\""), "{err}");
    let path = std::env::temp_dir().join(format!("qiju-bad-{}.trf", std::process::id()));
    std::fs::write(&path, format!("012 Bad\n{}\n", "001    1      One                                                                1.5          x w 1")).unwrap();
    let (rc, _, err) = qiju(&[
        "tournament",
        "standings",
        path.to_str().unwrap(),
        "--tiebreaks",
        "BH",
    ]);
    assert_eq!(rc, 2);
    assert!(err.contains("line 2"), "{err}");
    std::fs::remove_file(&path).ok();
}
