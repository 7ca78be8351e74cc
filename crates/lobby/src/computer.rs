//! Games against the computer, started from the lobby: at most
//! [`MAX_GAMES_PER_USER`] per account, and at most
//! `LobbyLimits::deep_computer_games_per_address` deep ones per client
//! address — guests are free accounts, so the per-account cap alone let
//! one address queue 32 level-8 games (8 guests × 4); the address's cap
//! bounds what a swarm can queue, and its searches share the machine as
//! one (`play::computer::FairQueue`).

use crate::protocol::ColorChoice;
use crate::protocol::LobbyMsg;
use crate::start::{gets_first, parse_tc, parse_variant, GameStarted};
use crate::Lobby;
use common::Error;
use game::Side;
use play::computer::{share_of, Computers, MAX_GAMES_PER_USER};
use play::live::{self, GameSetup, Seat};
use serde::Deserialize;
use std::net::IpAddr;
use store::User;
use utoipa::ToSchema;

/// A game against the computer.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ComputerRequest {
    /// Built-in engine strength 1–8.
    pub level: Option<u8>,
    /// Or the name of an external engine the operator configured.
    pub engine: Option<String>,
    pub variant: Option<String>,
    pub time: String,
    #[serde(default)]
    pub color: ColorChoice,
    /// A position to start from (the variant's own format), as a study of
    /// the analysis board goes on against the computer.
    pub fen: Option<String>,
}

impl Lobby {
    /// Starts a game against the computer (built-in levels 1–8, or an
    /// operator-configured engine) for `user`, asking from `client`.
    ///
    /// # Errors
    /// A bad time control, variant or computer, too many computer or
    /// untimed games (of the account, or deep ones of the address), or
    /// storage.
    pub async fn play_computer(
        &self,
        user: User,
        client: IpAddr,
        req: ComputerRequest,
    ) -> Result<GameStarted, Error> {
        let tc = parse_tc(&req.time)?;
        let v = parse_variant(req.variant.as_deref())?;
        let variant = v.id.to_string();
        let spec = match (req.level, &req.engine) {
            (Some(l), None) => format!("level:{l}"),
            (None, Some(e)) => format!("engine:{e}"),
            _ => {
                return Err(Error::bad(
                    "bad_computer",
                    "give either a level (1-8) or an engine name",
                ))
            }
        };
        if !self.0.play.computers().knows(v, &spec) {
            return Err(Error::bad("bad_computer", format!("no computer player {spec}")));
        }
        if let Some(fen) = &req.fen {
            v.new_game(Some(fen), 0)
                .map_err(|e| Error::bad("bad_fen", e.to_string()))?;
        }
        // One account cannot take every computer (see play::computer): a few
        // games at once, finished or resigned before more.
        let _one_at_a_time = self.starting(&[&user.id]).await;
        self.check_untimed_cap(&user, &tc).await?;
        let open = self.0.store.live_computer_games(&user.id).await?;
        if open >= MAX_GAMES_PER_USER {
            return Err(Error::conflict(
                "too_many_computer_games",
                format!(
                    "you already play {open} games against the computer; finish one first (at most {MAX_GAMES_PER_USER})"
                ),
            ));
        }
        // A deep game holds a place of its address's from here until the
        // game is made (or not): counted and taken as one step for every
        // account of the address.
        let place = if Computers::is_quick(v, &spec) {
            None
        } else {
            Some(self.deep_place(client)?)
        };
        let me_first = gets_first(req.color.resolve(v)?, ColorChoice::Random)?;
        let my_side = if me_first { Side::First } else { Side::Second };
        let cpu = Seat {
            user: None,
            name: match (req.level, &req.engine) {
                (Some(l), _) => format!("Computer level {l}"),
                (_, Some(e)) => e.clone(),
                _ => "Computer".into(),
            },
            computer: Some(spec),
        };
        let me = Seat::person(&user);
        let (red, black) = if me_first { (me, cpu) } else { (cpu, me) };
        let game = live::create_game_from(
            &self.0.play,
            GameSetup {
                variant,
                profile: registry::Profile::Online,
                fen: req.fen,
                time_control: tc,
                rated: false,
                first: red,
                second: black,
                first_move_ms: None,
                event: None,
            },
            client,
        )
        .await?;
        if let Some(place) = place {
            place.taken_by(&game);
        }
        self.notify(
            &user.id,
            &LobbyMsg::GameStart {
                game: game.clone(),
                color: my_side,
            },
        );
        Ok(GameStarted {
            game,
            color: my_side.to_string(),
        })
    }
}

/// The deep computer games started from one address, and places held for
/// games being made.
#[derive(Debug, Default)]
pub(crate) struct DeepGames {
    games: Vec<String>,
    making: usize,
}

/// A place among an address's deep computer games, held while the game is
/// made: [`DeepPlace::taken_by`] keeps it for the game; dropped, it frees.
struct DeepPlace<'a> {
    lobby: &'a Lobby,
    share: IpAddr,
}

impl DeepPlace<'_> {
    fn taken_by(self, game: &str) {
        crate::lock(&self.lobby.0.deep_games)
            .entry(self.share)
            .or_default()
            .games
            .push(game.to_string());
        // Dropped now: the place held while making it is given back.
    }
}

impl Drop for DeepPlace<'_> {
    fn drop(&mut self) {
        let mut all = crate::lock(&self.lobby.0.deep_games);
        if let Some(at) = all.get_mut(&self.share) {
            at.making = at.making.saturating_sub(1);
            if at.making == 0 && at.games.is_empty() {
                all.remove(&self.share);
            }
        }
    }
}

impl Lobby {
    /// Holds a place for one more deep computer game from `client`, or
    /// refuses when its address has as many going as the limit allows. A
    /// game counts while its task runs on this node (until a little after
    /// it ends, `PlayConfig::finished_linger`).
    fn deep_place(&self, client: IpAddr) -> Result<DeepPlace<'_>, Error> {
        let share = share_of(client);
        let cap = self.0.limits.deep_computer_games_per_address;
        let games = self.0.play.games();
        let mut all = crate::lock(&self.0.deep_games);
        // Addresses come and go: now and then, forget those with no game.
        if all.len() >= 1024 {
            all.retain(|_, at| {
                at.games.retain(|g| games.get(g).is_some());
                !at.games.is_empty() || at.making > 0
            });
        }
        let at = all.entry(share).or_default();
        at.games.retain(|g| games.get(g).is_some());
        let going = at.games.len() + at.making;
        if cap > 0 && going >= cap {
            return Err(Error::conflict(
                "too_many_computer_games",
                format!(
                    "{going} deep games against the computer are going from your address (at most {cap}); \
                     finish one first, or play a quick level (1-{})",
                    play::computer::QUICK_LEVELS
                ),
            ));
        }
        at.making += 1;
        Ok(DeepPlace { lobby: self, share })
    }
}
