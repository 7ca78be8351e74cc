//! Seeks: open offers to play anyone, paired at once with a matching one.

use crate::protocol::{ColorChoice, LobbyMsg, SeekView};
use crate::start::{gets_first, parse_tc, parse_variant, Terms};
use crate::{lock, Lobby};
use clock::TimeControl;
use common::Error;
use game::Side;
use serde::{Deserialize, Serialize};
use store::User;
use utoipa::ToSchema;

/// A new seek.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// `xiangqi/cxa` (default), `xiangqi/wxf`, `xiangqi/asian`, `xiangqi/simple`.
    pub variant: Option<String>,
    /// Minutes + increment seconds, e.g. `10+5`.
    pub time: String,
    #[serde(default)]
    pub rated: bool,
    /// Opponent rating range (inclusive).
    pub rating_min: Option<f64>,
    pub rating_max: Option<f64>,
    /// Opponent rating range as a distance from your own rating in the
    /// variant's pool (the quick-pairing grid's ±300, ±500): the server
    /// knows your rating, the page need not. Not with `rating_min` or
    /// `rating_max`.
    pub rating_range: Option<f64>,
    #[serde(default)]
    pub color: ColorChoice,
}

#[derive(Clone, Debug)]
pub(crate) struct Seek {
    pub(crate) view: SeekView,
    pub(crate) user: User,
    pub(crate) tc: TimeControl,
    pub(crate) expires_ms: i64,
    /// The node that holds it, when it is another's (issue 29): this
    /// node's copy is for listing and for pairing with; the pairing itself
    /// is done there.
    pub(crate) node: Option<String>,
}

/// Answer to a seek: either it was paired at once (`game`) or it waits in
/// the lobby (`seek`); the game's start is then announced on the player's
/// event stream.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct SeekResult {
    pub seek: Option<String>,
    pub game: Option<String>,
    /// Your colour in the game, when paired.
    pub color: Option<String>,
}

/// The widest `rating_range`: past it every rating is in range anyway.
const MAX_RATING_RANGE: f64 = 3000.0;

/// The range a seek pairs within: the one asked for, or `rating ± range`.
fn opponent_range(req: &SeekRequest, rating: f64) -> Result<(Option<f64>, Option<f64>), Error> {
    for bound in [req.rating_min, req.rating_max].into_iter().flatten() {
        if !bound.is_finite() {
            return Err(Error::bad("bad_rating_range", "a rating bound is a number"));
        }
    }
    let Some(range) = req.rating_range else {
        return Ok((req.rating_min, req.rating_max));
    };
    if req.rating_min.is_some() || req.rating_max.is_some() {
        return Err(Error::bad(
            "bad_rating_range",
            "give rating_range or rating_min/rating_max, not both",
        ));
    }
    if !(range.is_finite() && range > 0.0 && range <= MAX_RATING_RANGE) {
        return Err(Error::bad(
            "bad_rating_range",
            format!("rating_range is a distance from your rating above 0 and at most {MAX_RATING_RANGE}, not {range}"),
        ));
    }
    let rating = rating.round();
    Ok((Some(rating - range), Some(rating + range)))
}

fn in_range(rating: f64, min: Option<f64>, max: Option<f64>) -> bool {
    min.is_none_or(|m| rating >= m) && max.is_none_or(|m| rating <= m)
}

fn colors_fit(a: ColorChoice, b: ColorChoice) -> bool {
    !matches!(
        (a, b),
        (ColorChoice::First, ColorChoice::First) | (ColorChoice::Second, ColorChoice::Second)
    )
}

/// Whether two seeks ask for the same game.
fn same_terms(a: &Seek, b: &Seek) -> bool {
    a.view.variant == b.view.variant
        && a.tc == b.tc
        && a.view.rated == b.view.rated
        && a.view.rating_min == b.view.rating_min
        && a.view.rating_max == b.view.rating_max
        && a.view.color == b.view.color
}

/// Whether `a` (already waiting) and `b` (just made) can be paired.
fn matches(a: &Seek, b: &Seek) -> bool {
    a.user.id != b.user.id
        && a.view.variant == b.view.variant
        && a.tc == b.tc
        && a.view.rated == b.view.rated
        && in_range(b.view.rating, a.view.rating_min, a.view.rating_max)
        && in_range(a.view.rating, b.view.rating_min, b.view.rating_max)
        && colors_fit(a.view.color, b.view.color)
}

/// The longest main time and increment a seek may offer to anyone.
const SEEK_MAX_MAIN_MS: i64 = 180 * 60_000;
const SEEK_MAX_INCREMENT_MS: i64 = 180_000;

/// A seek is offered to everyone in the lobby, so it must be a game anyone
/// could sit down to: a clock, and at most 180 minutes + 180 s (untimed and
/// marathon games, 999+999, are played by challenge, with someone who
/// agreed to them).
fn seekable(tc: &TimeControl) -> Result<(), Error> {
    if tc.is_unlimited() {
        return Err(Error::bad(
            "untimed_seek",
            "untimed games are played by challenge, not offered to everyone",
        ));
    }
    let (main, inc) = play::table::headline(tc);
    if main > SEEK_MAX_MAIN_MS || inc > SEEK_MAX_INCREMENT_MS {
        return Err(Error::bad(
            "seek_too_long",
            "a seek offers at most 180 minutes and 180 s a move; longer games are played by challenge",
        ));
    }
    Ok(())
}

impl Lobby {
    /// The open seeks.
    #[must_use]
    pub fn seeks(&self) -> Vec<SeekView> {
        self.prune(common::now_ms());
        lock(&self.0.seeks).iter().map(|s| s.view.clone()).collect()
    }

    /// Makes a seek; it is paired at once with a matching one when there is.
    ///
    /// # Errors
    /// A bad time control or variant, a seek that is no game for anyone,
    /// a guest's rated seek, too many seeks or untimed games, a bot
    /// account's seek (`forbidden`), or storage.
    pub async fn seek(&self, user: User, req: SeekRequest) -> Result<SeekResult, Error> {
        // As on lichess: a bot plays through the Bot API, by challenges.
        if user.bot {
            return Err(Error::Forbidden(
                "a bot account plays through the Bot API: challenge or be challenged".into(),
            ));
        }
        let tc = parse_tc(&req.time)?;
        seekable(&tc)?;
        let v = parse_variant(req.variant.as_deref())?;
        let variant = v.id.to_string();
        // The rating the seek shows and is paired by: the player's in the
        // variant's pool.
        let rating = self.0.store.rating(&user.id, v.rating_pool).await?.rating.rating;
        if req.rated && user.guest {
            return Err(Error::Forbidden("guests play casual games only".into()));
        }
        let (rating_min, rating_max) = opponent_range(&req, rating)?;
        let limits = self.0.limits;
        let now = common::now_ms();
        self.prune(now);
        self.check_untimed_cap(&user, &tc).await?;
        let seek = Seek {
            view: SeekView {
                id: common::random_id(8)?,
                player: user.name.clone(),
                rating: rating.round(),
                variant,
                time: req.time.trim().to_string(),
                rated: req.rated,
                rating_min,
                rating_max,
                color: req.color.resolve(v)?,
            },
            user,
            tc: tc.clone(),
            expires_ms: now + limits.seek_ttl_ms,
            node: None,
        };
        // Another node's seek that matches is paired there, if it is
        // still there; if not, its copy goes and this seek looks again.
        loop {
            let elsewhere = lock(&self.0.seeks)
                .iter()
                .find(|s| s.node.is_some() && matches(s, &seek))
                .map(|s| (s.node.clone().unwrap_or_default(), s.view.id.clone()));
            let Some((node, id)) = elsewhere else { break };
            match self.take_seek_at(&node, &id, &seek).await {
                Ok(Some(paired)) => return Ok(paired),
                Ok(None) => self.forget_seek(&id),
                Err(e) => return Err(e),
            }
        }
        let partner = {
            let mut seeks = lock(&self.0.seeks);
            match seeks.iter().position(|s| s.node.is_none() && matches(s, &seek)) {
                Some(i) => Some(seeks.remove(i)),
                None => {
                    // The same seek again (a double click, a resent request)
                    // is the seek already there, not a second one.
                    if let Some(same) = seeks
                        .iter()
                        .find(|s| s.user.id == seek.user.id && same_terms(s, &seek))
                    {
                        return Ok(SeekResult {
                            seek: Some(same.view.id.clone()),
                            game: None,
                            color: None,
                        });
                    }
                    let mine = seeks.iter().filter(|s| s.user.id == seek.user.id).count();
                    if mine >= limits.seeks_per_user {
                        return Err(Error::conflict(
                            "too_many_seeks",
                            format!(
                                "you have {mine} open seeks; withdraw one first (at most {})",
                                limits.seeks_per_user
                            ),
                        ));
                    }
                    seeks.push(seek.clone());
                    None
                }
            }
        };
        let Some(other) = partner else {
            self.share_seek(&seek);
            self.announce(&LobbyMsg::SeekAdded {
                seek: seek.view.clone(),
            });
            return Ok(SeekResult {
                seek: Some(seek.view.id),
                game: None,
                color: None,
            });
        };
        self.seek_gone(&other.view.id);
        self.pair(seek, &other).await
    }

    /// Starts the game of two matching seeks: `seek`'s player is told
    /// their colour.
    pub(crate) async fn pair(&self, seek: Seek, other: &Seek) -> Result<SeekResult, Error> {
        let tc = seek.tc.clone();
        let me_first = gets_first(seek.view.color, other.view.color)?;
        let (red, black) = if me_first {
            (&seek.user, &other.user)
        } else {
            (&other.user, &seek.user)
        };
        let terms = Terms {
            variant: seek.view.variant.clone(),
            // The lobby is online play.
            profile: registry::Profile::Online,
            tc,
            rated: seek.view.rated,
            fen: None,
        };
        let id = self.start_between(red, black, terms).await?;
        Ok(SeekResult {
            seek: None,
            game: Some(id),
            color: Some(if me_first { Side::First } else { Side::Second }.to_string()),
        })
    }

    /// Withdraws one of `user`'s seeks.
    ///
    /// # Errors
    /// `not_found`: no such seek of theirs.
    pub fn withdraw_seek(&self, user: &User, id: String) -> Result<(), Error> {
        let removed = {
            let mut seeks = lock(&self.0.seeks);
            let before = seeks.len();
            seeks.retain(|s| !(s.view.id == id && s.user.id == user.id));
            before != seeks.len()
        };
        if !removed {
            return Err(Error::NotFound(format!("seek {id}")));
        }
        self.seek_gone(&id);
        Ok(())
    }

    /// A seek of this node's went: every lobby is told, and the other
    /// nodes drop their copies.
    pub(crate) fn seek_gone(&self, id: &str) {
        self.share_seek_gone(id);
        self.announce(&LobbyMsg::SeekRemoved { id: id.to_string() });
    }

    /// Pairs `seek` (another node's player's) with this node's seek `id`,
    /// if it is still open: `None` when it is not.
    pub(crate) async fn take_seek(&self, id: &str, seek: Seek) -> Result<Option<SeekResult>, Error> {
        let mine = {
            let mut seeks = lock(&self.0.seeks);
            seeks
                .iter()
                .position(|s| s.view.id == id && s.node.is_none() && matches(s, &seek))
                .map(|i| seeks.remove(i))
        };
        let Some(mine) = mine else { return Ok(None) };
        self.seek_gone(id);
        self.pair(seek, &mine).await.map(Some)
    }

    /// Removes every seek of a player (when they start a game).
    pub(crate) fn drop_seeks_of(&self, user_id: &str) {
        let removed: Vec<String> = {
            let mut seeks = lock(&self.0.seeks);
            let ids = seeks
                .iter()
                .filter(|s| s.user.id == user_id)
                .map(|s| s.view.id.clone())
                .collect();
            seeks.retain(|s| s.user.id != user_id);
            ids
        };
        for id in removed {
            self.seek_gone(&id);
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn seek(
        user: &str,
        rating: f64,
        rated: bool,
        range: (Option<f64>, Option<f64>),
        color: ColorChoice,
    ) -> Seek {
        let u = User {
            id: user.into(),
            name: user.into(),
            password_hash: None,
            guest: false,
            created_ms: 0,
            awarded_title: None,
            real_title: None,
            muted: false,
            banned: false,
            bot: false,
        };
        Seek {
            view: SeekView {
                id: format!("s-{user}"),
                player: user.into(),
                rating,
                variant: "xiangqi/cxa".into(),
                time: "10+5".into(),
                rated,
                rating_min: range.0,
                rating_max: range.1,
                color,
            },
            user: u,
            tc: "10+5".parse().unwrap(),
            expires_ms: i64::MAX,
            node: None,
        }
    }

    #[test]
    fn a_rating_range_is_bounds_around_the_rounded_rating() {
        let req = |range: Option<f64>, min: Option<f64>| SeekRequest {
            variant: None,
            time: "10+0".into(),
            rated: true,
            rating_min: min,
            rating_max: None,
            rating_range: range,
            color: ColorChoice::Random,
        };
        assert_eq!(
            opponent_range(&req(Some(300.0), None), 1499.6).unwrap(),
            (Some(1200.0), Some(1800.0))
        );
        assert_eq!(
            opponent_range(&req(None, Some(1000.0)), 1500.0).unwrap(),
            (Some(1000.0), None)
        );
        for bad in [
            req(Some(0.0), None),
            req(Some(-1.0), None),
            req(Some(f64::INFINITY), None),
            req(Some(3001.0), None),
            req(Some(300.0), Some(1000.0)),
            req(None, Some(f64::NEG_INFINITY)),
        ] {
            assert_eq!(
                opponent_range(&bad, 1500.0).unwrap_err().code(),
                "bad_rating_range"
            );
        }
    }

    #[test]
    fn pairing_respects_range_rated_and_colour() {
        let a = seek(
            "a",
            1500.0,
            true,
            (Some(1400.0), Some(1600.0)),
            ColorChoice::Random,
        );
        assert!(matches(
            &a,
            &seek("b", 1450.0, true, (None, None), ColorChoice::Random)
        ));
        assert!(!matches(
            &a,
            &seek("b", 1700.0, true, (None, None), ColorChoice::Random)
        ));
        assert!(!matches(
            &a,
            &seek("b", 1450.0, false, (None, None), ColorChoice::Random)
        ));
        assert!(!matches(
            &a,
            &seek("b", 1450.0, true, (Some(1600.0), None), ColorChoice::Random)
        ));
        assert!(!matches(
            &a,
            &seek("a", 1450.0, true, (None, None), ColorChoice::Random)
        ));
        let red = seek("c", 1500.0, true, (None, None), ColorChoice::First);
        assert!(!matches(
            &red,
            &seek("d", 1500.0, true, (None, None), ColorChoice::First)
        ));
        assert!(matches(
            &red,
            &seek("d", 1500.0, true, (None, None), ColorChoice::Second)
        ));
        assert!(gets_first(ColorChoice::Random, ColorChoice::Second).unwrap());
        assert!(!gets_first(ColorChoice::Second, ColorChoice::Random).unwrap());
    }
}
