//! The browser marks black's forbidden points with its own implementation
//! (`crates/web/assets/js/rules/renju.js`, from the definitions as
//! `reference.rs`). This test keeps `tests/e2e/renju-forbidden.json` — 120
//! seeded boards with every forbidden point and its kind, as this crate
//! finds them — true; `tests/e2e/rules.test.mjs` holds the browser's
//! module to it. `QIJU_WRITE_FIXTURES=1` writes the file anew.

mod common;

use common::{board_line, position, recursive_cases, Rng};
use renju::ForbiddenPoints;

const BOARDS: usize = 120;

fn fixture() -> String {
    let mut rng = Rng(0x7e57_0f1e_d5ee_d001);
    let mut out = String::from("[\n");
    let mut recursive = 0;
    for i in 0..BOARDS {
        let board = position(&mut rng, i);
        if !recursive_cases(&board).is_empty() {
            recursive += 1;
        }
        let points: Vec<String> = ForbiddenPoints::of(&board)
            .iter()
            .map(|(p, f)| format!("\"{p}\":\"{f}\""))
            .collect();
        let comma = if i + 1 < BOARDS { "," } else { "" };
        out.push_str(&format!(
            "{{\"board\":\"{}\",\"forbidden\":{{{}}}}}{comma}\n",
            board_line(&board),
            points.join(",")
        ));
    }
    out.push_str("]\n");
    assert!(
        recursive >= 10,
        "only {recursive} boards where the recursive three decides"
    );
    out
}

#[test]
fn the_browsers_fixture_is_this_crates_answer() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/e2e/renju-forbidden.json");
    let want = fixture();
    if std::env::var("QIJU_WRITE_FIXTURES").is_ok_and(|v| v == "1") || !path.exists() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap();
    assert!(
        have == want,
        "{} is stale: run with QIJU_WRITE_FIXTURES=1",
        path.display()
    );
}
