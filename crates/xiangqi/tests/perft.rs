//! Perft against the published counts in `data/perft.json`.

use xiangqi::{perft::perft, Position};

fn cases() -> Vec<(String, Vec<(u32, u64)>)> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/perft.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["xiangqi"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let counts = match &c["counts"] {
                serde_json::Value::Array(a) => a
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (i as u32 + 1, n.as_u64().unwrap()))
                    .collect(),
                serde_json::Value::Object(o) => o
                    .iter()
                    .map(|(d, n)| (d.parse().unwrap(), n.as_u64().unwrap()))
                    .collect(),
                other => panic!("bad counts {other}"),
            };
            (c["fen"].as_str().unwrap().to_owned(), counts)
        })
        .collect()
}

/// Every published count up to perft(5) of the start position (a second or
/// two in release); `qiju bench` runs perft(6).
#[test]
fn published_counts() {
    let mut checked = 0;
    for (fen, counts) in cases() {
        let mut pos = Position::from_fen(&fen).unwrap();
        for (depth, want) in counts {
            if want > 200_000_000 {
                continue;
            }
            assert_eq!(perft(&mut pos, depth), want, "perft({depth}) of {fen}");
            checked += 1;
        }
        assert!(pos.is_consistent());
    }
    assert!(checked >= 6, "only {checked} counts checked");
}
