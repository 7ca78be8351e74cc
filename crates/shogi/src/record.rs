//! A game record as KIF and CSA both hold it: the players, the start, the
//! moves (as USI, each checked legal while reading), the time each took, and
//! how the game ended. [`crate::kif`] and [`crate::csa`] read and write it;
//! a malformed record is refused with the number of the line at fault.

use crate::sfen::{parse_sfen, write_sfen, STARTPOS};
use crate::usi::parse_usi;
use rsshogi::board::Position;
use std::fmt;

/// How a recorded game ended, in the words KIF (投了, 千日手 …) and CSA
/// (`%TORYO`, `%SENNICHITE` …) both have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordEnd {
    /// 投了 / `%TORYO`: the side to move resigned.
    Resign,
    /// 中断 / `%CHUDAN`.
    Abort,
    /// 千日手 / `%SENNICHITE`.
    Repetition,
    /// 持将棋 / `%JISHOGI`.
    Impasse,
    /// 入玉勝ち, 宣言勝ち / `%KACHI`: the side to move declared and won.
    Declaration,
    /// 詰み / `%TSUMI`: the side to move is mated.
    Checkmate,
    /// 切れ負け / `%TIME_UP`: the side to move lost on time.
    Timeout,
    /// 反則負け / `%ILLEGAL_MOVE`: the side to move lost by a foul.
    IllegalMove,
    /// Anything else, as written.
    Other(String),
}

/// One move: USI, and the seconds it took when the record says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    pub usi: String,
    pub seconds: Option<u32>,
}

/// A shogi game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShogiRecord {
    /// Sente's (or in a handicap game the receiver's, 下手) name.
    pub black: Option<String>,
    /// Gote's (or the giver's, 上手) name.
    pub white: Option<String>,
    /// Other header lines, in order: (key, value).
    pub headers: Vec<(String, String)>,
    /// The start position.
    pub initial_sfen: String,
    pub moves: Vec<RecordedMove>,
    pub end: Option<RecordEnd>,
}

impl Default for ShogiRecord {
    fn default() -> Self {
        ShogiRecord {
            black: None,
            white: None,
            headers: Vec::new(),
            initial_sfen: STARTPOS.to_string(),
            moves: Vec::new(),
            end: None,
        }
    }
}

impl ShogiRecord {
    /// The USI moves, for `position sfen … moves …` and the game.
    #[must_use]
    pub fn usi_moves(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.usi.clone()).collect()
    }

    /// The position after all the moves.
    ///
    /// # Panics
    /// Never for a record this module read (every move was checked).
    #[must_use]
    pub fn final_position(&self) -> Position {
        let (mut pos, _) = parse_sfen(&self.initial_sfen).expect("a checked start");
        for m in &self.moves {
            let mv = parse_usi(&pos, &m.usi).expect("a checked move");
            pos.apply_move32(mv);
        }
        pos
    }
}

/// Header keys KIF and CSA both have: (KIF, CSA).
pub(crate) const HEADER_KEYS: [(&str, &str); 6] = [
    ("棋戦", "EVENT"),
    ("場所", "SITE"),
    ("開始日時", "START_TIME"),
    ("終了日時", "END_TIME"),
    ("持ち時間", "TIME_LIMIT"),
    ("戦型", "OPENING"),
];

/// A header key as KIF writes it.
pub(crate) fn kif_key(key: &str) -> &str {
    HEADER_KEYS
        .iter()
        .find(|(_, c)| *c == key)
        .map_or(key, |(k, _)| k)
}

/// A header key as CSA writes it, when CSA has one.
pub(crate) fn csa_key(key: &str) -> Option<&str> {
    if key.chars().all(|c| c.is_ascii_uppercase() || c == '_') && !key.is_empty() {
        return Some(key);
    }
    HEADER_KEYS.iter().find(|(k, _)| *k == key).map(|(_, c)| *c)
}

/// A record that cannot be read: the line (1-based) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct RecordError {
    pub line: usize,
    pub message: String,
}

pub(crate) fn err(line: usize, message: impl fmt::Display) -> RecordError {
    RecordError {
        line,
        message: message.to_string(),
    }
}

/// Text of a record file: UTF-8 (a byte-order mark dropped), or else
/// Shift_JIS (CP932), which most `.kif` and `.csa` files use.
#[must_use]
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::SHIFT_JIS.decode(bytes).0.into_owned(),
    }
}

/// Replays moves from a start, for readers: keeps the position and checks
/// each move, so an illegal one is refused with its line.
pub(crate) struct Replay {
    pub pos: Position,
    pub start_sfen: String,
    pub moves: Vec<RecordedMove>,
}

impl Replay {
    pub fn new(sfen: &str, line: usize) -> Result<Replay, RecordError> {
        let (pos, n) = parse_sfen(sfen).map_err(|e| err(line, e))?;
        Ok(Replay {
            start_sfen: write_sfen(&pos, n),
            pos,
            moves: Vec::new(),
        })
    }

    pub fn play(&mut self, usi: &str, seconds: Option<u32>, line: usize) -> Result<(), RecordError> {
        let m = parse_usi(&self.pos, usi).map_err(|e| err(line, e))?;
        self.pos.apply_move32(m);
        self.moves.push(RecordedMove {
            usi: usi.to_string(),
            seconds,
        });
        Ok(())
    }
}

/// Full-width digits as KIF writes files (１–９).
pub(crate) const WIDE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
/// Kanji numerals as KIF writes ranks (一–九).
pub(crate) const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

pub(crate) fn wide_digit(c: char) -> Option<u8> {
    WIDE_DIGITS
        .iter()
        .position(|&d| d == c)
        .or_else(|| {
            c.to_digit(10)
                .filter(|d| (1..=9).contains(d))
                .map(|d| d as usize - 1)
        })
        .map(|i| i as u8 + 1)
}

pub(crate) fn kanji_digit(c: char) -> Option<u8> {
    KANJI_DIGITS.iter().position(|&d| d == c).map(|i| i as u8 + 1)
}

/// A kanji count as KIF writes hands (二, 十, 十八).
pub(crate) fn kanji_count(s: &str) -> Option<u32> {
    if s.is_empty() {
        return Some(1);
    }
    let mut total = 0;
    let mut digit = 0;
    for c in s.chars() {
        if c == '十' {
            total += if digit == 0 { 10 } else { digit * 10 };
            digit = 0;
        } else {
            digit = u32::from(kanji_digit(c)?);
        }
    }
    Some(total + digit)
}

pub(crate) fn kanji_number(n: u32) -> String {
    match n {
        0 => String::new(),
        1..=9 => KANJI_DIGITS[n as usize - 1].to_string(),
        10 => "十".to_string(),
        _ => format!("十{}", KANJI_DIGITS[(n - 11) as usize]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kanji_counts() {
        for n in 1..=18 {
            assert_eq!(kanji_count(&kanji_number(n)), Some(n), "{n}");
        }
        assert_eq!(kanji_count(""), Some(1));
        assert_eq!(kanji_count("x"), None);
        assert_eq!(wide_digit('７'), Some(7));
        assert_eq!(wide_digit('7'), Some(7));
        assert_eq!(kanji_digit('六'), Some(6));
    }

    #[test]
    fn decodes_shift_jis() {
        // 投了 in Shift_JIS.
        assert_eq!(decode(&[0x93, 0x8a, 0x97, 0xb9]), "投了");
        assert_eq!(decode("\u{feff}投了".as_bytes()), "投了");
    }
}
