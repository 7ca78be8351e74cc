//! How a player's boards look, kept with the account so it follows them to
//! every browser.

use crate::Accounts;
use common::Error;
use serde::{Deserialize, Serialize};
use store::User;
use utoipa::ToSchema;

/// How a player's boards look and behave.
///
/// Every field has a default (`#[serde(default)]`), so settings stored
/// before a field existed still read, with the new field at its default;
/// an unknown field or value is still refused.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    pub board_theme: BoardTheme,
    pub piece_set: PieceSet,
    /// Files and ranks drawn beside the board.
    pub coordinates: bool,
    pub board_size: BoardSize,
    pub chess_pieces: ChessPieces,
    pub move_confirmation: MoveConfirmation,
    /// Whether opponents may ask to take back a move in casual games
    /// (`false`: every request is refused at once). Read by the live game
    /// (`play::live`), which sees only the stored JSON.
    pub takebacks: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            board_theme: BoardTheme::Wood,
            piece_set: PieceSet::Chinese,
            coordinates: true,
            board_size: BoardSize::Medium,
            chess_pieces: ChessPieces::Cburnett,
            move_confirmation: MoveConfirmation::Off,
            takebacks: true,
        }
    }
}

/// The board's colours, for every game: Xiangqi's wood and lines, the
/// chess squares.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum BoardTheme {
    Wood,
    Slate,
    Green,
    /// Black lines on white, as a printed book's diagrams.
    Paper,
}

/// Xiangqi pieces: the characters, letters (K A E H R C P, as WXF notation
/// names them) for players who do not read Chinese, the traditional
/// characters (帥 俥 傌 砲 …) as Hong Kong, Taiwan and old books write
/// them, or the characters outlined on white discs, which read better on
/// a small screen.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PieceSet {
    Chinese,
    Letters,
    Traditional,
    Outlined,
}

/// How large a board is drawn, at most: a phone always gets the whole
/// width of its screen whatever the choice.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum BoardSize {
    Small,
    Medium,
    Large,
}

/// Chess pieces: Colin M.L. Burnett's drawings, or plain letters on
/// discs (K Q R B N P) that stay legible on any screen.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ChessPieces {
    Cburnett,
    Letters,
}

/// Whether a move made on the board waits for a ✓ before it is sent: a
/// slip of the finger on a phone otherwise loses a game at once.
/// `phones` asks only on a touch screen.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum MoveConfirmation {
    Off,
    On,
    Phones,
}

impl Accounts {
    /// A player's settings (the defaults until they change them).
    ///
    /// # Errors
    /// Storage.
    pub async fn settings(&self, user: &User) -> Result<Settings, Error> {
        let stored = self.store.settings(&user.id).await?;
        // A row written by another version that no longer reads: the defaults.
        Ok(stored
            .and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or_default())
    }

    /// Keeps a player's settings with their account.
    ///
    /// # Errors
    /// Storage.
    pub async fn put_settings(&self, user: &User, settings: Settings) -> Result<Settings, Error> {
        let json = serde_json::to_string(&settings).map_err(|e| Error::Internal(e.to_string()))?;
        self.store.set_settings(&user.id, &json).await?;
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Settings stored before board size, chess pieces and move
    /// confirmation existed still read, with those at their defaults.
    #[test]
    fn old_settings_read_with_the_new_fields_at_their_defaults() {
        let old = r#"{"board_theme":"slate","piece_set":"letters","coordinates":false}"#;
        let s: Settings = serde_json::from_str(old).unwrap();
        assert_eq!(
            s,
            Settings {
                board_theme: BoardTheme::Slate,
                piece_set: PieceSet::Letters,
                coordinates: false,
                ..Settings::default()
            }
        );
        assert_eq!(s.board_size, BoardSize::Medium);
        assert_eq!(s.move_confirmation, MoveConfirmation::Off);
        assert_eq!(
            serde_json::from_str::<Settings>("{}").unwrap(),
            Settings::default()
        );
    }

    #[test]
    fn settings_write_and_read_back_every_value() {
        let s = Settings {
            board_theme: BoardTheme::Paper,
            piece_set: PieceSet::Outlined,
            coordinates: true,
            board_size: BoardSize::Large,
            chess_pieces: ChessPieces::Letters,
            move_confirmation: MoveConfirmation::Phones,
            takebacks: false,
        };
        let json = serde_json::to_value(s).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "board_theme": "paper", "piece_set": "outlined", "coordinates": true,
                "board_size": "large", "chess_pieces": "letters", "move_confirmation": "phones",
                "takebacks": false
            })
        );
        assert_eq!(serde_json::from_value::<Settings>(json).unwrap(), s);
        for theme in ["wood", "slate", "green", "paper"] {
            let s: Settings = serde_json::from_str(&format!(r#"{{"board_theme":"{theme}"}}"#)).unwrap();
            assert_eq!(serde_json::to_value(s).unwrap()["board_theme"], theme);
        }
        for set in ["chinese", "letters", "traditional", "outlined"] {
            let s: Settings = serde_json::from_str(&format!(r#"{{"piece_set":"{set}"}}"#)).unwrap();
            assert_eq!(serde_json::to_value(s).unwrap()["piece_set"], set);
        }
    }

    /// An unknown value names the field's values; an unknown field is
    /// named too.
    #[test]
    fn unknown_values_and_fields_are_refused_clearly() {
        let e = serde_json::from_str::<Settings>(r#"{"board_size":"huge"}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown variant `huge`, expected one of `small`, `medium`, `large`"),
            "{e}"
        );
        let e = serde_json::from_str::<Settings>(r#"{"move_confirmation":true}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("move_confirmation") || e.contains("expected"), "{e}");
        let e = serde_json::from_str::<Settings>(r#"{"board_colour":"wood"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `board_colour`"), "{e}");
    }
}
