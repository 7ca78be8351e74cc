//! What the server tells clients on the lobby socket ([`LobbyMsg`]), the
//! views it carries (seeks, challenges), and the personal events (`game_start`, `challenge`, `challenge_declined`,
//! `notice`)
//! that also go, one a line, to the bot event stream. docs/websocket.md
//! describes these messages; the server's tests check it against this enum.

use game::Side;
use play::protocol::ChatRoom;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Which colour a player asks for: `first`, `second` or `random`, or a
/// side by the word the registry gives it (`red`, `white`, `sente` …),
/// which names a side of the variant asked for: `black` is the second side
/// in Xiangqi and chess and the first in renju. A word is read as
/// [`ColorChoice::Named`] and resolved against the variant
/// ([`ColorChoice::resolve`]) before a seek, challenge or game holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ColorChoice {
    /// The side that moves first.
    First,
    Second,
    #[default]
    Random,
    /// A side's word from the registry, not yet resolved.
    #[serde(skip)]
    Named(&'static str),
}

impl ColorChoice {
    /// The choice a word names, if any.
    #[must_use]
    pub fn from_word(word: &str) -> Option<ColorChoice> {
        match word {
            "first" => Some(ColorChoice::First),
            "second" => Some(ColorChoice::Second),
            "random" => Some(ColorChoice::Random),
            _ => registry::all()
                .iter()
                .flat_map(registry::Variant::side_keys)
                .find(|k| *k == word)
                .map(ColorChoice::Named),
        }
    }

    /// The choice in `variant`'s sides: a side's word names that side of
    /// the variant; a word the variant does not use, the side it names in
    /// every variant that does (`red` in a chess seek is the first side),
    /// refused where those differ.
    ///
    /// # Errors
    /// `bad_color` for a word that names no side of the variant and
    /// different sides elsewhere.
    pub fn resolve(self, variant: &registry::Variant) -> Result<ColorChoice, common::Error> {
        let ColorChoice::Named(word) = self else {
            return Ok(self);
        };
        let side = variant.side_of(word).or_else(|| {
            let mut sides = registry::all().iter().filter_map(|v| v.side_of(word));
            let first = sides.next()?;
            sides.all(|s| s == first).then_some(first)
        });
        match side {
            Some(game::Side::First) => Ok(ColorChoice::First),
            Some(game::Side::Second) => Ok(ColorChoice::Second),
            None => Err(common::Error::bad(
                "bad_color",
                format!(
                    "{word:?} is no side of {}: say first, second, random or {}",
                    variant.id,
                    variant.side_keys().join(" or ")
                ),
            )),
        }
    }
}

impl<'de> Deserialize<'de> for ColorChoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ColorChoice, D::Error> {
        let word = String::deserialize(d)?;
        ColorChoice::from_word(&word).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "color is first, second, random or a side's name (red, white …), not {word:?}"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::ColorChoice;

    #[test]
    fn every_variants_side_words_choose_one_side() {
        for v in registry::all() {
            for (i, key) in v.side_keys().into_iter().enumerate() {
                let want = if i == 0 {
                    ColorChoice::First
                } else {
                    ColorChoice::Second
                };
                let read = ColorChoice::from_word(key).unwrap();
                assert_eq!(read.resolve(v).unwrap(), want, "{} in {}", key, v.id);
            }
        }
        for v in registry::all() {
            let c: ColorChoice = serde_json::from_str(&format!("\"{}\"", v.side_keys()[0])).unwrap();
            assert_eq!(c.resolve(v).unwrap(), ColorChoice::First);
        }
        // `black` is the second side in chess and the first in renju; in
        // shogi, which has no black, it is refused.
        let black = ColorChoice::from_word("black").unwrap();
        let get = |id| registry::get(Some(id)).unwrap();
        assert_eq!(black.resolve(get("chess")).unwrap(), ColorChoice::Second);
        assert_eq!(black.resolve(get("renju")).unwrap(), ColorChoice::First);
        assert!(black.resolve(get("shogi")).is_err());
        assert_eq!(
            ColorChoice::from_word("red")
                .unwrap()
                .resolve(get("chess"))
                .unwrap(),
            ColorChoice::First
        );
        assert!(serde_json::from_str::<ColorChoice>("\"purple\"").is_err());
    }
}

/// A seek as the lobby shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SeekView {
    pub id: String,
    pub player: String,
    pub rating: f64,
    pub variant: String,
    pub time: String,
    pub rated: bool,
    pub rating_min: Option<f64>,
    pub rating_max: Option<f64>,
    pub color: ColorChoice,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ChallengeView {
    pub id: String,
    pub from: String,
    pub to: String,
    pub variant: String,
    pub time: String,
    pub rated: bool,
    pub color: ColorChoice,
    pub fen: Option<String>,
    #[schema(value_type = String)]
    pub rules: registry::Profile,
    /// The finished game this challenge offers to play again: the
    /// recipient is told "a rematch", not a stranger's challenge.
    #[serde(default)]
    pub rematch_of: Option<String>,
}

/// Why a challenge was declined: lichess's reasons (its `declineReasonKey`),
/// which a decline may give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum DeclineReason {
    Generic,
    Later,
    TooFast,
    TooSlow,
    TimeControl,
    Rated,
    Casual,
    Standard,
    Variant,
    NoBot,
    OnlyBot,
}

impl DeclineReason {
    /// lichess's key for the reason (`tooFast` …).
    #[must_use]
    pub fn key(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }

    /// The reason in lichess's English words.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            DeclineReason::Generic => "I'm not accepting challenges at the moment.",
            DeclineReason::Later => "This is not the right time for me, please ask again later.",
            DeclineReason::TooFast => {
                "This time control is too fast for me, please challenge again with a slower game."
            }
            DeclineReason::TooSlow => {
                "This time control is too slow for me, please challenge again with a faster game."
            }
            DeclineReason::TimeControl => "I'm not accepting challenges with this time control.",
            DeclineReason::Rated => "Please send me a rated challenge instead.",
            DeclineReason::Casual => "Please send me a casual challenge instead.",
            DeclineReason::Standard => "I'm not accepting variant challenges right now.",
            DeclineReason::Variant => "I'm not willing to play this variant right now.",
            DeclineReason::NoBot => "I'm not accepting challenges from bots.",
            DeclineReason::OnlyBot => "I'm only accepting challenges from bots.",
        }
    }
}

/// A player someone follows, as their friends list shows them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FriendView {
    pub name: String,
    /// Has the site open (a lobby connection: every page holds one).
    pub online: bool,
    /// Their newest live game, to watch.
    pub playing: Option<FriendGame>,
}

/// A live game of a followed player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FriendGame {
    pub id: String,
    pub variant: String,
    pub time_control: String,
    /// Whom they play (a computer's `level:N`).
    pub opponent: String,
}

/// What a [`LobbyMsg::Notice`] is about. The page shows every kind the
/// same way — a toast with a link to the game, and the browser's
/// notification when allowed — so a new kind needs no new client code
/// beyond its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    /// The opponent moved in a game the player is not looking at (a
    /// correspondence game).
    Move,
}

/// A line of the lobby chat, as sent and as kept for newcomers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LobbyLine {
    /// Always [`ChatRoom::Lobby`]: a client tells it from a game's lines.
    pub room: ChatRoom,
    pub from: String,
    pub text: String,
    pub at_ms: i64,
}

impl LobbyLine {
    /// A line `from` says now.
    #[must_use]
    pub fn now(from: &str, text: &str) -> LobbyLine {
        LobbyLine {
            room: ChatRoom::Lobby,
            from: from.to_string(),
            text: text.to_string(),
            at_ms: common::now_ms(),
        }
    }
}

/// Every message the server sends on the lobby socket. The personal ones
/// (`game_start`, `challenge`, `challenge_declined`, `notice`) also go, one a line,
/// to the bot event stream. A refusal is the game protocol's
/// [`play::protocol::ServerMsg::Error`], and `pong` its
/// [`play::protocol::ServerMsg::Pong`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum LobbyMsg {
    /// The open seeks: the first message, and again after falling behind.
    Seeks {
        seeks: Vec<SeekView>,
    },
    SeekAdded {
        seek: SeekView,
    },
    /// Paired, withdrawn, expired, or its player left the lobby.
    SeekRemoved {
        id: String,
    },
    /// A game started for you: open `/api/games/{game}/ws`.
    GameStart {
        game: String,
        color: Side,
    },
    /// Someone challenged you.
    Challenge {
        challenge: ChallengeView,
    },
    /// A challenge of yours (or to you) was declined or withdrawn: `by`
    /// whom, the challenge as it stood, and the reason a decline gave.
    ChallengeDeclined {
        id: String,
        by: String,
        challenge: ChallengeView,
        reason: Option<DeclineReason>,
    },
    /// Something happened for you elsewhere on the site (a move in a
    /// correspondence game): `from` did it, in `game`.
    Notice {
        kind: NoticeKind,
        from: String,
        game: Option<String>,
    },
    /// The lobby chat's last lines, oldest first: the second message.
    ChatHistory {
        lines: Vec<LobbyLine>,
    },
    Chat(LobbyLine),
}

impl LobbyMsg {
    /// The message's type, its `t` field.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            LobbyMsg::Seeks { .. } => "seeks",
            LobbyMsg::SeekAdded { .. } => "seek_added",
            LobbyMsg::SeekRemoved { .. } => "seek_removed",
            LobbyMsg::GameStart { .. } => "game_start",
            LobbyMsg::Challenge { .. } => "challenge",
            LobbyMsg::ChallengeDeclined { .. } => "challenge_declined",
            LobbyMsg::Notice { .. } => "notice",
            LobbyMsg::ChatHistory { .. } => "chat_history",
            LobbyMsg::Chat(_) => "chat",
        }
    }

    /// The message as sent.
    #[must_use]
    pub fn to_json(&self) -> String {
        // Plain data with string keys: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}
