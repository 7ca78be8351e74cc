//! Archived games as records in the variant's record format (PGN, KIF),
//! written by the game's registry entry: this module gives it
//! what every game has — the players under their sides' names, ratings,
//! date, time control, the mover's clock after each move, the result and
//! the ruling's words.

use crate::protocol::GameView;
use game::Side;

/// A game's record as a file to download.
#[derive(Clone, Debug)]
pub struct RecordFile {
    /// `qiju-ID.pgn`, `qiju-ID.kifu`.
    pub file_name: String,
    pub media_type: &'static str,
    pub text: String,
}

/// The game in its variant's record format, as a file.
///
/// # Errors
/// As [`write`].
pub fn file(g: &GameView) -> Result<RecordFile, String> {
    let v = registry::get(Some(&g.variant)).map_err(|e| e.to_string())?;
    Ok(RecordFile {
        file_name: format!("qiju-{}.{}", g.id, v.record.extension),
        media_type: v.record.media_type,
        text: write(g)?,
    })
}

/// The game in its variant's record format (PGN, KIF).
///
/// # Errors
/// A stored game whose variant is unknown or whose moves do not replay (a
/// damaged database row).
pub fn write(g: &GameView) -> Result<String, String> {
    let v = registry::get(Some(&g.variant)).map_err(|e| e.to_string())?;
    // Which clock is the mover's: each move says who made it.
    let moves = g
        .moves
        .iter()
        .map(|m| {
            let mover = m.side;
            let left = if mover == Side::First {
                m.first_ms
            } else {
                m.second_ms
            };
            registry::RecordMove {
                coord: m.coord.as_str(),
                clock_ms: u64::try_from(left).ok(),
                spent_ms: u64::try_from(m.spent_ms).ok(),
            }
        })
        .collect();
    let event = if g.rated {
        "qiju rated game"
    } else {
        "qiju casual game"
    };
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), event.into()),
        ("Site".into(), format!("qiju game {}", g.id)),
        ("Date".into(), registry::pgn_date(g.created_ms)),
        ("Round".into(), "-".into()),
    ];
    let players = [&g.first, &g.second];
    for side in Side::BOTH {
        tags.push((
            v.sides[side.index()].name.en.into(),
            players[side.index()].name.clone(),
        ));
    }
    for side in Side::BOTH {
        if let Some(x) = players[side.index()].rating {
            tags.push((format!("{}Elo", v.sides[side.index()].name.en), format!("{x}")));
        }
    }
    tags.push(("TimeControl".into(), g.time_control.clone()));
    if let Some(reason) = &g.reason {
        tags.push(("Termination".into(), reason.clone()));
    }
    v.write_record(&registry::GameRecord {
        initial_fen: &g.initial_fen,
        moves,
        tags,
        result: g.result.as_deref().unwrap_or("*"),
        final_comment: g.detail.as_deref(),
    })
}
