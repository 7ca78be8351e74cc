//! Archived games as PGN, the format Xiangqi databases (XQF converters,
//! ElephantEye's tools, DhtmlXQ sites) exchange: the standard seven-tag
//! roster with `Red`/`Black` for the players, `[Game "Chinese Chess"]`,
//! `[Format "ICCS"]` for coordinate moves, and `[FEN]` when the game did not
//! start from the usual position.

use crate::live::GameView;

const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn tag(out: &mut String, name: &str, value: &str) {
    let v = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{v}\"]\n"));
}

fn date(ms: i64) -> String {
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The game as PGN text.
#[must_use]
pub fn write(g: &GameView) -> String {
    let result = g.result.clone().unwrap_or_else(|| "*".into());
    let mut out = String::new();
    tag(&mut out, "Game", "Chinese Chess");
    tag(
        &mut out,
        "Event",
        if g.rated {
            "qiju rated game"
        } else {
            "qiju casual game"
        },
    );
    tag(&mut out, "Site", &format!("qiju game {}", g.id));
    tag(&mut out, "Date", &date(g.created_ms));
    tag(&mut out, "Round", "-");
    tag(&mut out, "Red", &g.red.name);
    tag(&mut out, "Black", &g.black.name);
    tag(&mut out, "Result", &result);
    if let Some(r) = g.red.rating {
        tag(&mut out, "RedElo", &format!("{r}"));
    }
    if let Some(r) = g.black.rating {
        tag(&mut out, "BlackElo", &format!("{r}"));
    }
    tag(&mut out, "Variant", &g.variant);
    tag(&mut out, "TimeControl", &g.time_control);
    if let Some(reason) = &g.reason {
        tag(&mut out, "Termination", reason);
    }
    tag(&mut out, "Format", "ICCS");
    if g.initial_fen != START_FEN {
        tag(&mut out, "FEN", &g.initial_fen);
    }
    out.push('\n');
    let mut line = String::new();
    for m in &g.moves {
        let piece = if m.ply % 2 == 1 {
            format!("{}. {}", m.ply.div_ceil(2), m.coord.to_uppercase_iccs())
        } else {
            m.coord.to_uppercase_iccs()
        };
        if line.len() + piece.len() + 1 > 79 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        line.push_str(&piece);
        line.push(' ');
    }
    line.push_str(&result);
    out.push_str(&line);
    out.push('\n');
    if let Some(d) = &g.detail {
        out.push_str(&format!("{{{}}}\n", d.replace('}', ")")));
    }
    out
}

/// ICCS in PGN is written `H2-E2`, as the ICCS standard and XQ databases do.
trait UpperIccs {
    fn to_uppercase_iccs(&self) -> String;
}

impl UpperIccs for String {
    fn to_uppercase_iccs(&self) -> String {
        if self.len() == 4 && self.is_ascii() {
            format!(
                "{}-{}",
                self[..2].to_ascii_uppercase(),
                self[2..].to_ascii_uppercase()
            )
        } else {
            self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(date(0), "1970.01.01");
        assert_eq!(date(951_782_400_000), "2000.02.29");
        assert_eq!(date(1_767_225_600_000), "2026.01.01");
    }
}
