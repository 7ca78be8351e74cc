//! Archived games as records in the variant's record format (PGN, KIF),
//! written by the game's registry entry: this module gives it
//! what every game has — the players under their sides' names, ratings,
//! date, time control, the mover's clock after each move, the result and
//! the ruling's words.

use crate::protocol::GameView;
use common::Error;
use game::Side;

/// A game's record as a file to download.
#[derive(Clone, Debug)]
pub struct RecordFile {
    /// `qiju-ID.pgn`, `qiju-ID.kifu`.
    pub file_name: String,
    pub media_type: &'static str,
    pub text: String,
}

/// The game in its variant's record format, as a file, with its moves in
/// `notation` (one of the registry's `record.notations`; `None`: the
/// usual one). Another notation's file is named after it
/// (`qiju-ID-chinese.pgn`) so that both downloads can sit side by side.
///
/// # Errors
/// `bad_notation` for a notation the variant's records are not written in
/// (the asker's mistake); `Internal` for a stored game that does not
/// replay.
pub fn file(g: &GameView, notation: Option<&str>) -> Result<RecordFile, Error> {
    let v = registry::get(Some(&g.variant)).map_err(|e| Error::Internal(e.to_string()))?;
    let notation = v.record_notation(notation).map_err(|message| Error::BadRequest {
        code: "bad_notation",
        message,
    })?;
    let file_name = if notation == v.record.notations[0] {
        format!("qiju-{}.{}", g.id, v.record.extension)
    } else {
        format!("qiju-{}-{notation}.{}", g.id, v.record.extension)
    };
    Ok(RecordFile {
        file_name,
        media_type: v.record.media_type,
        text: write(g, Some(notation))
            .map_err(|e| Error::Internal(format!("game {} does not replay: {e}", g.id)))?,
    })
}

/// The game in its variant's record format (PGN, KIF), its moves in
/// `notation` or the format's usual one.
///
/// # Errors
/// A notation the format is not written in; a stored game whose variant is
/// unknown or whose moves do not replay (a damaged database row).
pub fn write(g: &GameView, notation: Option<&str>) -> Result<String, String> {
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
    // PGN counts seconds (`120+1`), where qiju's notation counts minutes
    // (`2+1`).
    let pgn_tc = g
        .time_control
        .parse::<clock::TimeControl>()
        .map_or_else(|_| "?".to_string(), |t| t.pgn_tag());
    tags.push(("TimeControl".into(), pgn_tc));
    if let Some(reason) = &g.reason {
        tags.push(("Termination".into(), reason.clone()));
    }
    let record = registry::GameRecord {
        initial_fen: &g.initial_fen,
        moves,
        tags,
        result: g.result.as_deref().unwrap_or("*"),
        final_comment: g.detail.as_deref(),
    };
    match notation {
        Some(n) => v.write_record_in(&record, n),
        None => v.write_record(&record),
    }
}
