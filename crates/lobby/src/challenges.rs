//! Direct challenges: one player asks another, who accepts or declines.

use crate::protocol::ColorChoice;
use crate::protocol::{ChallengeView, DeclineReason, LobbyMsg};
use crate::start::{gets_first, parse_tc, parse_variant, GameStarted, Terms};
use crate::{lock, Lobby};
use clock::TimeControl;
use common::Error;
use game::Side;
use serde::Deserialize;
use store::User;
use utoipa::ToSchema;

/// A direct challenge.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// The challenged player's name.
    pub to: String,
    pub variant: Option<String>,
    pub time: String,
    #[serde(default)]
    pub rated: bool,
    #[serde(default)]
    pub color: ColorChoice,
    /// Start from this position (FEN) instead of the usual one; casual only.
    pub fen: Option<String>,
    /// `online` (the default: what would be a foul is refused) or
    /// `arbiter` (an event over the board: the rule book's fouls and
    /// penalties, CXA 9.1.3, 9.1.4, 23.3).
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub rules: registry::Profile,
    /// The finished game between the two of you this offers to play again.
    pub rematch_of: Option<String>,
}

#[derive(Clone, Debug)]
pub(crate) struct Challenge {
    pub(crate) view: ChallengeView,
    pub(crate) from: User,
    pub(crate) to_id: String,
    pub(crate) tc: TimeControl,
    pub(crate) expires_ms: i64,
    /// The node that holds it, when it is another's (issue 29): this
    /// node's copy is for showing; answers go there.
    pub(crate) node: Option<String>,
}

impl Lobby {
    /// Challenges a player directly.
    ///
    /// # Errors
    /// A bad time control, variant or position, an unknown or oneself as
    /// opponent, a guest in a rated game, too many challenges or untimed
    /// games, or storage.
    pub async fn challenge(&self, user: User, req: ChallengeRequest) -> Result<ChallengeView, Error> {
        let tc = parse_tc(&req.time)?;
        let v = parse_variant(req.variant.as_deref())?;
        let variant = v.id.to_string();
        let to = self
            .0
            .store
            .user_by_name(&req.to)
            .await?
            .ok_or_else(|| Error::NotFound(format!("player {}", req.to)))?;
        if to.id == user.id {
            return Err(Error::bad("self_challenge", "you cannot challenge yourself"));
        }
        if req.rated && (user.guest || to.guest) {
            return Err(Error::Forbidden("guests play casual games only".into()));
        }
        if let Some(fen) = &req.fen {
            if req.rated {
                return Err(Error::bad(
                    "rated_from_position",
                    "rated games start from the usual position",
                ));
            }
            v.new_game(Some(fen), 0)
                .map_err(|e| Error::bad("bad_fen", e.to_string()))?;
        }
        if let Some(game) = &req.rematch_of {
            self.check_rematch(game, &user, &to).await?;
        }
        self.check_untimed_cap(&user, &tc).await?;
        let limits = self.0.limits;
        let now = common::now_ms();
        self.prune(now);
        let view = ChallengeView {
            id: common::random_id(8)?,
            from: user.name.clone(),
            to: to.name.clone(),
            variant,
            time: req.time.trim().to_string(),
            rated: req.rated,
            color: req.color.resolve(v)?,
            fen: req.fen.clone(),
            rules: req.rules,
            rematch_of: req.rematch_of.clone(),
        };
        {
            let mut all = lock(&self.0.challenges);
            let sent = all.values().filter(|c| c.from.id == user.id).count();
            if sent >= limits.challenges_per_sender {
                return Err(Error::conflict(
                    "too_many_challenges",
                    format!("you have {sent} unanswered challenges; wait for answers or withdraw one"),
                ));
            }
            let waiting = all.values().filter(|c| c.to_id == to.id).count();
            if waiting >= limits.challenges_per_recipient {
                return Err(Error::conflict(
                    "recipient_busy",
                    format!("{} has {waiting} challenges waiting; try again later", to.name),
                ));
            }
            let c = Challenge {
                view: view.clone(),
                from: user,
                to_id: to.id.clone(),
                tc,
                expires_ms: now + limits.challenge_ttl_ms,
                node: None,
            };
            self.share_challenge(&c);
            all.insert(view.id.clone(), c);
        }
        self.notify(
            &to.id,
            &LobbyMsg::Challenge {
                challenge: view.clone(),
            },
        );
        Ok(view)
    }

    /// A rematch is offered only of a finished game the two played: the
    /// recipient is told it is one, so it must not be a stranger's word.
    async fn check_rematch(&self, game: &str, from: &User, to: &User) -> Result<(), Error> {
        let refused = || {
            Error::bad(
                "bad_rematch",
                format!("{game} is no finished game of yours against {}", to.name),
            )
        };
        if game.len() > 32 {
            return Err(refused());
        }
        let (row, _) = self.0.store.game(game).await?.ok_or_else(refused)?;
        let seats = [row.first_id.as_deref(), row.second_id.as_deref()];
        let between = seats.contains(&Some(from.id.as_str())) && seats.contains(&Some(to.id.as_str()));
        if !between || row.state == "live" {
            return Err(refused());
        }
        Ok(())
    }

    /// Challenges waiting for `user`'s answer, and theirs waiting for others.
    #[must_use]
    pub fn challenges_of(&self, user: &User) -> Vec<ChallengeView> {
        self.prune(common::now_ms());
        lock(&self.0.challenges)
            .values()
            .filter(|c| c.to_id == user.id || c.from.id == user.id)
            .map(|c| c.view.clone())
            .collect()
    }

    /// Accepts a challenge addressed to `user`: the game starts.
    ///
    /// # Errors
    /// `not_found`: no such challenge to them; or the game cannot start.
    pub async fn accept(&self, user: User, id: &str) -> Result<GameStarted, Error> {
        self.prune(common::now_ms());
        let elsewhere = lock(&self.0.challenges)
            .get(id)
            .filter(|c| c.to_id == user.id)
            .and_then(|c| c.node.clone());
        if let Some(node) = elsewhere {
            return self.accept_at(&node, &user.id, id).await;
        }
        let c = {
            let mut all = lock(&self.0.challenges);
            match all.get(id) {
                Some(c) if c.to_id == user.id => all.remove(id),
                _ => None,
            }
        }
        .ok_or_else(|| Error::NotFound(format!("challenge {id}")))?;
        self.share_challenge_gone(id);
        // The challenger's colour choice decides.
        let challenger_first = gets_first(c.view.color, ColorChoice::Random)?;
        let (red, black) = if challenger_first {
            (&c.from, &user)
        } else {
            (&user, &c.from)
        };
        let terms = Terms {
            variant: c.view.variant.clone(),
            profile: c.view.rules,
            tc: c.tc.clone(),
            rated: c.view.rated,
            fen: c.view.fen.clone(),
        };
        let game = match self.start_between(red, black, terms).await {
            Ok(game) => game,
            Err(e) => {
                // Refused (a cap, storage): the challenge stands, to be
                // accepted once there is room.
                self.share_challenge(&c);
                lock(&self.0.challenges).insert(id.to_string(), c);
                return Err(e);
            }
        };
        Ok(GameStarted {
            game,
            color: if challenger_first {
                Side::Second
            } else {
                Side::First
            }
            .to_string(),
        })
    }

    /// Declines (or, as the challenger, withdraws) a challenge, with
    /// lichess's reason where one is given.
    ///
    /// # Errors
    /// `not_found`: no such challenge of theirs.
    pub async fn decline(&self, user: &User, id: String, reason: Option<DeclineReason>) -> Result<(), Error> {
        let elsewhere = lock(&self.0.challenges)
            .get(&id)
            .filter(|c| c.to_id == user.id || c.from.id == user.id)
            .and_then(|c| c.node.clone());
        if let Some(node) = elsewhere {
            return self.decline_at(&node, &user.id, &id, reason).await;
        }
        let c = {
            let mut all = lock(&self.0.challenges);
            match all.get(&id) {
                Some(c) if c.to_id == user.id || c.from.id == user.id => all.remove(&id),
                _ => None,
            }
        }
        .ok_or_else(|| Error::NotFound(format!("challenge {id}")))?;
        self.share_challenge_gone(&id);
        let ev = LobbyMsg::ChallengeDeclined {
            id,
            by: user.name.clone(),
            challenge: c.view.clone(),
            reason,
        };
        self.notify(&c.from.id, &ev);
        self.notify(&c.to_id, &ev);
        Ok(())
    }
}
