//! Starting a game the lobby agreed on: the terms checked, the colours
//! drawn, the game made by the play room, both players told.

use crate::protocol::ColorChoice;
use crate::protocol::LobbyMsg;
use crate::Lobby;
use clock::TimeControl;
use common::Error;
use game::Side;
use play::live::{self, GameSetup, Seat};
use serde::Serialize;
use store::User;
use utoipa::ToSchema;

/// A game that started for the player who asked.
#[derive(Clone, Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct GameStarted {
    pub game: String,
    /// Your colour.
    pub color: String,
}

/// What two people agreed to play.
pub(crate) struct Terms {
    pub variant: String,
    pub profile: registry::Profile,
    pub tc: TimeControl,
    pub rated: bool,
    pub fen: Option<String>,
}

/// Whether the player asking with `mine` gets the first side against `theirs`.
pub(crate) fn gets_first(mine: ColorChoice, theirs: ColorChoice) -> Result<bool, Error> {
    Ok(match (mine, theirs) {
        (ColorChoice::First, _) | (ColorChoice::Random, ColorChoice::Second) => true,
        (ColorChoice::Second, _) | (ColorChoice::Random, ColorChoice::First) => false,
        // Random against random (a word is resolved before it gets here).
        _ => common::random_bit()?,
    })
}

pub(crate) fn parse_tc(text: &str) -> Result<TimeControl, Error> {
    play::table::parse_time_control(text).map_err(|e| Error::bad("bad_time_control", e))
}

pub(crate) fn parse_variant(v: Option<&str>) -> Result<&'static registry::Variant, Error> {
    registry::get(v).map_err(|e| Error::bad("bad_variant", e.to_string()))
}

impl Lobby {
    /// Refuses a new untimed game to a player who has
    /// `untimed_games_per_user` of them going: they never end by the
    /// clock, so without a cap one account kept 5,000 open. Asked early
    /// (a seek or challenge is refused at once) and again when the game
    /// starts, under the players' start locks.
    ///
    /// # Errors
    /// `too_many_untimed_games`, or the database cannot be read.
    pub(crate) async fn check_untimed_cap(&self, user: &User, tc: &TimeControl) -> Result<(), Error> {
        // Correspondence games last for days too: the same cap.
        let long = |tc: &TimeControl| tc.is_unlimited() || tc.correspondence_days().is_some();
        if !long(tc) {
            return Ok(());
        }
        let cap = self.0.limits.untimed_games_per_user;
        let open = self
            .0
            .store
            .live_time_controls(&user.id)
            .await?
            .iter()
            .filter(|t| play::table::parse_time_control(t).is_ok_and(|t| long(&t)))
            .count();
        if open >= cap {
            return Err(Error::conflict(
                "too_many_untimed_games",
                format!(
                    "you have {open} untimed or correspondence games going; finish one first (at most {cap})"
                ),
            ));
        }
        Ok(())
    }

    /// Starts a game between two people and tells both. An untimed game is
    /// checked against both players' cap here, as one step with making it:
    /// checked only when a challenge was made, the accepter escaped the cap
    /// and challenges accepted at once all passed it (two senders × 10
    /// accepted made 20 games).
    pub(crate) async fn start_between(
        &self,
        red: &User,
        black: &User,
        terms: Terms,
    ) -> Result<String, Error> {
        let _one_at_a_time = self.starting(&[&red.id, &black.id]).await;
        self.check_untimed_cap(red, &terms.tc).await?;
        self.check_untimed_cap(black, &terms.tc).await?;
        let id = live::create_game(
            &self.0.play,
            GameSetup {
                variant: terms.variant,
                profile: terms.profile,
                fen: terms.fen,
                time_control: terms.tc,
                rated: terms.rated,
                first: Seat::person(red),
                second: Seat::person(black),
                first_move_ms: None,
                event: None,
            },
        )
        .await?;
        self.drop_seeks_of(&red.id);
        self.drop_seeks_of(&black.id);
        for (user, side) in [(red, Side::First), (black, Side::Second)] {
            self.notify(
                &user.id,
                &LobbyMsg::GameStart {
                    game: id.clone(),
                    color: side,
                },
            );
        }
        Ok(id)
    }
}
