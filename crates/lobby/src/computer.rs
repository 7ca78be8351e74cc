//! Games against the computer, started from the lobby.

use crate::protocol::ColorChoice;
use crate::protocol::LobbyMsg;
use crate::start::{gets_first, parse_tc, parse_variant, GameStarted};
use crate::Lobby;
use common::Error;
use game::Side;
use play::computer::MAX_GAMES_PER_USER;
use play::live::{self, GameSetup, Seat};
use serde::Deserialize;
use store::User;
use utoipa::ToSchema;

/// A game against the computer.
#[derive(Clone, Debug, Deserialize, ToSchema)]
pub struct ComputerRequest {
    /// Built-in engine strength 1–8.
    pub level: Option<u8>,
    /// Or the name of an external engine the operator configured.
    pub engine: Option<String>,
    pub variant: Option<String>,
    pub time: String,
    #[serde(default)]
    pub color: ColorChoice,
}

impl Lobby {
    /// Starts a game against the computer (built-in levels 1–8, or an
    /// operator-configured engine).
    ///
    /// # Errors
    /// A bad time control, variant or computer, too many computer or
    /// untimed games, or storage.
    pub async fn play_computer(&self, user: User, req: ComputerRequest) -> Result<GameStarted, Error> {
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
        // One account cannot take every computer (see play::computer): a few
        // games at once, finished or resigned before more.
        let _one_at_a_time = self.computer_start(&user.id).await;
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
        let game = live::create_game(
            &self.0.play,
            GameSetup {
                variant,
                profile: registry::Profile::Online,
                fen: None,
                time_control: tc,
                rated: false,
                first: red,
                second: black,
            },
        )
        .await?;
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
