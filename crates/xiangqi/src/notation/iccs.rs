//! ICCS coordinates (中国象棋互联网服务器坐标): `h2e2`, files `a`–`i` from
//! red's left, ranks `0`–`9` from red's back rank. Also read: upper case and
//! the dashed form `H2-E2` of the xqbase protocol documents.

use super::{Notation, NotationError};
use crate::{Move, Position, Square};

pub(super) fn format(m: Move) -> String {
    m.iccs()
}

/// The move the text names, legal or not; `None` when the text is not ICCS.
pub(crate) fn read(text: &str) -> Option<Move> {
    let t = text.trim();
    let (from, to) = match t.len() {
        4 => (t.get(0..2)?, t.get(2..4)?),
        5 if t.as_bytes()[2] == b'-' => (t.get(0..2)?, t.get(3..5)?),
        _ => return None,
    };
    let (from, to) = (Square::from_iccs(from)?, Square::from_iccs(to)?);
    (from != to).then(|| Move::new(from, to))
}

pub(super) fn parse(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let m = read(text).ok_or_else(|| NotationError::Unreadable {
        text: text.to_owned(),
        style: Notation::Iccs,
        detail: "expected two squares such as h2e2 (files a-i, ranks 0-9)".to_owned(),
    })?;
    pos.check_move(m).map_err(|e| NotationError::Illegal {
        text: text.to_owned(),
        reason: e.to_string(),
    })?;
    Ok(m)
}
