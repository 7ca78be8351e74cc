//! A knockout match's armageddon colour (seed 001: 和棋黑胜, the colour
//! chosen by the player who had no choice at the lot). When a tied match's
//! play-off is over, the match waits: the chooser has the event's
//! `armageddon_choice_ms` to take the first side (red) or the second
//! (black, which a draw makes the winner), by `POST
//! /api/events/{id}/armageddon`; when the wait runs out the server chooses
//! black for them. The wait is a row of `store` written when it opens
//! (`event_armageddon_choices`), so a restart finds it with the same end:
//! the room's one-second tick ([`Events::choose_when_due`]) chooses for
//! the player once it has passed, however long the server was down. Every
//! knockout match — a knockout's, a double elimination's, a staged event's
//! knockout stage's — goes through `knockout::Events::advance_match`, and
//! so through here.

use crate::remote::Call;
use crate::{Events, Loaded};
use common::Error;
use serde::{Deserialize, Serialize};
use store::{ArmageddonChoiceRow, PairingRow, User};
use tournament::knockout::Next;
use utoipa::ToSchema;

/// The chooser's answer: `first` or `second`, or the game's names for
/// them (`red`, `black` in Xiangqi).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmageddonRequest {
    pub side: String,
}

/// Why a choice is refused; nothing changes.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChoiceRefusal {
    #[error("{given:?} is not a side: first or second ({first} or {second})")]
    BadSide {
        given: String,
        first: &'static str,
        second: &'static str,
    },
    /// Before the play-off is over, once chosen, or never theirs to
    /// choose.
    #[error("no armageddon colour of yours is waiting to be chosen in this event")]
    NoChoicePending,
    /// Seed 001: the player who had no choice at the lot chooses, not the
    /// other.
    #[error("not your choice: {name} (number {number}) chooses the armageddon colour of round {round} board {board}")]
    NotYourChoice {
        name: String,
        number: u32,
        round: u32,
        board: u32,
    },
}

impl From<ChoiceRefusal> for Error {
    fn from(r: ChoiceRefusal) -> Error {
        match r {
            ChoiceRefusal::BadSide { .. } => Error::bad("bad_side", r.to_string()),
            ChoiceRefusal::NoChoicePending => Error::conflict("no_choice_pending", r.to_string()),
            ChoiceRefusal::NotYourChoice { .. } => Error::conflict("not_your_choice", r.to_string()),
        }
    }
}

/// Whether `side` names the first side: `first`/`second`, or the
/// variant's keys for them.
pub fn parse_side(variant: &registry::Variant, side: &str) -> Result<bool, ChoiceRefusal> {
    let [first, second] = [variant.sides[0].key, variant.sides[1].key];
    match side.trim().to_ascii_lowercase().as_str() {
        "first" => Ok(true),
        "second" => Ok(false),
        s if s == first => Ok(true),
        s if s == second => Ok(false),
        _ => Err(ChoiceRefusal::BadSide {
            given: side.to_string(),
            first,
            second,
        }),
    }
}

/// The stored word for the chooser's side.
fn side_word(white: bool) -> &'static str {
    if white {
        "first"
    } else {
        "second"
    }
}

/// The choice row of board `p`, if its wait was opened.
pub(crate) fn choice_of<'a>(l: &'a Loaded, p: &PairingRow) -> Option<&'a ArmageddonChoiceRow> {
    l.armageddon_choices
        .iter()
        .find(|c| c.round == p.round && c.board == p.board)
}

/// The boards waiting for their armageddon colour: the wait open, nothing
/// chosen, the match undecided (an arbiter's result ends the wait).
pub(crate) fn pending(l: &Loaded) -> Vec<(&PairingRow, &ArmageddonChoiceRow)> {
    l.armageddon_choices
        .iter()
        .filter(|c| c.side.is_none())
        .filter_map(|c| {
            l.pairings
                .iter()
                .find(|p| p.round == c.round && p.board == c.board && p.result.is_none())
                .map(|p| (p, c))
        })
        .collect()
}

impl Events {
    /// The armageddon colour of the match on board `p`, whose chooser is
    /// pairing number `chooser`: whether they take the first side, once
    /// chosen — by them, or by the server as black when the wait has run
    /// out. `None` while the match waits; the wait opens (and is logged)
    /// the first time it is asked.
    pub(crate) async fn armageddon_colour(
        &self,
        l: &Loaded,
        p: &PairingRow,
        chooser: u32,
    ) -> Result<Option<bool>, Error> {
        let now = common::now_ms();
        let name = l
            .entry_number(chooser)
            .map_or_else(String::new, |e| e.name.clone());
        match choice_of(l, p) {
            Some(c) => match c.side.as_deref() {
                Some(side) => Ok(Some(side == "first")),
                None if c.due_ms <= now => {
                    // The wait ran out: black, which a draw makes the
                    // winner (和棋黑胜), as the server chose before issue 28.
                    if self
                        .store()
                        .choose_armageddon(&l.event.id, p.round, p.board, "second", now, true)
                        .await?
                    {
                        self.log(
                            &l.event.id,
                            None,
                            "armageddon_choice",
                            &format!(
                                "round {} board {}: {name} (number {chooser}) did not choose the armageddon colour in time: the server chose black (the second side) for them",
                                p.round, p.board
                            ),
                        )
                        .await?;
                    }
                    Ok(Some(false))
                }
                None => Ok(None),
            },
            None => {
                let due = now + l.event.armageddon_choice_ms;
                if self
                    .store()
                    .open_armageddon_choice(&l.event.id, p.round, p.board, chooser, due)
                    .await?
                {
                    self.log(
                        &l.event.id,
                        None,
                        "armageddon_wait",
                        &format!(
                            "round {} board {}: the play-off is tied; {name} (number {chooser}), who had no choice at the lot, chooses the armageddon colour within {} s (until {due} ms since the epoch), else black",
                            p.round,
                            p.board,
                            l.event.armageddon_choice_ms / 1000
                        ),
                    )
                    .await?;
                }
                Ok(None)
            }
        }
    }

    /// The chooser takes a side for their match's armageddon game, which
    /// starts at once (`POST /api/events/{id}/armageddon`).
    ///
    /// # Errors
    /// A side that is none (`bad_side`), no colour of theirs waiting to be
    /// chosen (`no_choice_pending`), their match's colour the other
    /// player's to choose (`not_your_choice`); nothing changes.
    pub async fn choose_armageddon(&self, id: &str, by: &User, req: ArmageddonRequest) -> Result<(), Error> {
        if let Some(done) = self
            .forwarded(id, || Call::Armageddon {
                id: id.into(),
                by: by.clone(),
                req: req.clone(),
            })
            .await?
        {
            return Ok(done);
        }
        let _one = self.lock(id).await;
        let l = self.load(id).await?;
        let variant = registry::get(Some(&l.event.variant)).map_err(|e| Error::Internal(e.to_string()))?;
        let white = parse_side(variant, &req.side)?;
        let waiting = pending(&l);
        let me = l.entry_of(&by.id).map(|e| e.number);
        let Some(&(p, c)) = waiting.iter().find(|(_, c)| Some(c.chooser) == me) else {
            // Their own match waiting for the other player's choice.
            if let Some(&(p, c)) = waiting
                .iter()
                .find(|(p, _)| me.is_some() && (Some(p.white) == me || p.black == me))
            {
                return Err(ChoiceRefusal::NotYourChoice {
                    name: l
                        .entry_number(c.chooser)
                        .map_or_else(String::new, |e| e.name.clone()),
                    number: c.chooser,
                    round: p.round,
                    board: p.board,
                }
                .into());
            }
            return Err(ChoiceRefusal::NoChoicePending.into());
        };
        // The match itself must be at its choice (a row never outlives it
        // otherwise; checked rather than trusted).
        let m = crate::knockout::rebuild(
            crate::knockout::format_of(&l),
            p,
            &crate::knockout::match_games_of(&l, p),
        )?;
        if !m.is_some_and(|m| matches!(m.next(), Next::ChooseColour { .. })) {
            return Err(Error::Internal(format!(
                "event {id} round {} board {}: a colour waited for out of turn",
                p.round, p.board
            )));
        }
        let now = common::now_ms();
        if !self
            .store()
            .choose_armageddon(id, p.round, p.board, side_word(white), now, false)
            .await?
        {
            return Err(ChoiceRefusal::NoChoicePending.into());
        }
        let shown = variant.sides[usize::from(!white)].name.en;
        self.log(
            id,
            Some(by),
            "armageddon_choice",
            &format!(
                "round {} board {}: {} (number {}) chose {shown} (the {} side) for the armageddon game{}",
                p.round,
                p.board,
                by.name,
                c.chooser,
                side_word(white),
                if white { "" } else { ", a draw their win" }
            ),
        )
        .await?;
        let l = self.load(id).await?;
        if let Some(p) = l
            .pairings
            .iter()
            .find(|q| q.round == p.round && q.board == p.board)
        {
            self.advance_match(&l, p).await?;
        }
        Ok(())
    }

    /// Chooses black for every chooser whose wait has run out, on this
    /// node's events (the room's tick: one query when there are none). A
    /// wait that ran out while the server was down is ended at its first
    /// tick.
    pub(crate) async fn choose_when_due(&self) {
        let node = self.play().config().node_id.clone();
        let ids = match self.store().armageddon_choices_due(&node, common::now_ms()).await {
            Ok(ids) => ids,
            Err(err) => {
                tracing::warn!(error = %err, "cannot look for armageddon colours due");
                return;
            }
        };
        for id in ids {
            let _one = self.lock(&id).await;
            if let Err(err) = self.choose_due_locked(&id).await {
                tracing::error!(event = %id, error = %err, "cannot choose an armageddon colour");
            }
        }
    }

    async fn choose_due_locked(&self, id: &str) -> Result<(), Error> {
        let l = self.load(id).await?;
        let now = common::now_ms();
        for (p, _) in pending(&l).into_iter().filter(|(_, c)| c.due_ms <= now) {
            self.advance_match(&l, p).await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_is_first_or_second_or_the_games_name_for_it() {
        let xiangqi = registry::get(Some("xiangqi/cxa")).unwrap();
        assert_eq!(parse_side(xiangqi, "first"), Ok(true));
        assert_eq!(parse_side(xiangqi, "Red"), Ok(true));
        assert_eq!(parse_side(xiangqi, "black"), Ok(false));
        assert_eq!(parse_side(xiangqi, "second"), Ok(false));
        assert!(matches!(
            parse_side(xiangqi, "white"),
            Err(ChoiceRefusal::BadSide { .. })
        ));
        // Gomoku's first side is black.
        let gomoku = registry::get(Some("gomoku/freestyle")).unwrap();
        assert_eq!(parse_side(gomoku, "black"), Ok(true));
    }
}
