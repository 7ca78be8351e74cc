//! How a player's boards look, kept with the account so it follows them to
//! every browser.

use crate::Accounts;
use common::Error;
use serde::{Deserialize, Serialize};
use store::User;
use utoipa::ToSchema;

/// How a player's boards look.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub board_theme: BoardTheme,
    pub piece_set: PieceSet,
    /// Files and ranks drawn beside the board.
    pub coordinates: bool,
    /// Whether opponents may ask to take back a move in casual games
    /// (`false`: every request is refused at once). Read by the live game
    /// (`play::live`), which sees only the stored JSON.
    #[serde(default = "yes")]
    pub takebacks: bool,
}

fn yes() -> bool {
    true
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            board_theme: BoardTheme::Wood,
            piece_set: PieceSet::Chinese,
            coordinates: true,
            takebacks: true,
        }
    }
}

#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum BoardTheme {
    Wood,
    Slate,
}

/// Xiangqi pieces: the characters, or letters (K A E H R C P, as WXF
/// notation names them) for players who do not read Chinese.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PieceSet {
    Chinese,
    Letters,
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
