//! The lobby: seeks (open offers to play), automatic pairing of matching
//! seeks, direct challenges, games against the computer, and the per-player
//! event stream that tells a player a game has started for them.
//!
//! Seeks and challenges are short-lived and kept in this node's memory (as
//! lichess keeps its hooks); games are stored the moment they are created.
//!
//! What one player may leave lying about is bounded ([`LobbyLimits`]):
//! before, one account made 2,000 seeks (every lobby visitor then got a
//! 321 kB greeting, and seeks never went away) and 2,000 challenges to one
//! victim. Seeks are few per player, vanish when the player's last lobby
//! connection (socket or event stream) closes, and expire; challenges are
//! few per sender and per recipient and expire.

use crate::auth::{random_id, Auth};
use crate::error::ApiError;
use crate::live::{self, GameSetup, Seat};
use crate::protocol::{LobbyLine, LobbyMsg};
use crate::store::User;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use clock::TimeControl;
use game::Side;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;
use utoipa::ToSchema;

/// Which colour a player asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ColorChoice {
    /// The side that moves first; the variants' words for the sides are
    /// accepted too.
    #[serde(alias = "red", alias = "white")]
    First,
    #[serde(alias = "black")]
    Second,
    #[default]
    Random,
}

/// A new seek.
#[derive(Clone, Debug, Deserialize, ToSchema)]
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
    #[serde(default)]
    pub color: ColorChoice,
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

#[derive(Clone, Debug)]
struct Seek {
    view: SeekView,
    user: User,
    tc: TimeControl,
    expires_ms: i64,
}

/// How much of the lobby one player may hold. See docs/SECURITY.md.
#[derive(Clone, Copy, Debug)]
pub struct LobbyLimits {
    /// Open seeks per player.
    pub seeks_per_user: usize,
    /// A seek's lifetime, even while its player stays connected.
    pub seek_ttl_ms: i64,
    /// Challenges a player has sent that are still unanswered.
    pub challenges_per_sender: usize,
    /// Unanswered challenges waiting for one player.
    pub challenges_per_recipient: usize,
    /// A challenge's lifetime.
    pub challenge_ttl_ms: i64,
    /// Live untimed games per player.
    pub untimed_games_per_user: usize,
    /// An untimed game with no move for this long ends (aborted before
    /// both sides moved, else lost by the side to move).
    pub untimed_idle_ms: i64,
}

impl Default for LobbyLimits {
    fn default() -> Self {
        LobbyLimits {
            seeks_per_user: 5,
            seek_ttl_ms: 60 * 60_000,
            challenges_per_sender: 10,
            challenges_per_recipient: 20,
            challenge_ttl_ms: 10 * 60_000,
            untimed_games_per_user: 10,
            untimed_idle_ms: 7 * 86_400_000,
        }
    }
}

/// Answer to a seek: either it was paired at once (`game`) or it waits in
/// the lobby (`seek`); the game's start is then announced on the player's
/// event stream.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeekResult {
    pub seek: Option<String>,
    pub game: Option<String>,
    /// Your colour in the game, when paired.
    pub color: Option<String>,
}

/// A direct challenge.
#[derive(Clone, Debug, Deserialize, ToSchema)]
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
}

#[derive(Clone, Debug)]
struct Challenge {
    view: ChallengeView,
    from: User,
    to_id: String,
    tc: TimeControl,
    expires_ms: i64,
}

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

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameStarted {
    pub game: String,
    /// Your colour.
    pub color: String,
}

/// Seeks, challenges and the per-user event channels.
#[derive(Debug)]
pub struct Lobby {
    seeks: Mutex<Vec<Seek>>,
    challenges: Mutex<HashMap<String, Challenge>>,
    users: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
    /// Who is in the lobby, by id: their name and open lobby connections.
    present: Mutex<HashMap<String, (String, usize)>>,
    /// The lobby chat's last lines, oldest first, for whoever comes in.
    chat: Mutex<std::collections::VecDeque<LobbyLine>>,
    /// Seek list changes and the lobby chat, for everyone in the lobby.
    pub public: broadcast::Sender<Arc<str>>,
    /// One account's computer-game starts, one at a time (striped by
    /// account): the cap is counted in the database, so two requests at
    /// once would both count the same games and both start one.
    computer_starts: [tokio::sync::Mutex<()>; 16],
}

/// Lobby chat lines a newcomer is shown.
pub const CHAT_HISTORY: usize = 50;

impl Default for Lobby {
    fn default() -> Self {
        Lobby {
            seeks: Mutex::new(Vec::new()),
            challenges: Mutex::new(HashMap::new()),
            users: Mutex::new(HashMap::new()),
            present: Mutex::new(HashMap::new()),
            chat: Mutex::new(std::collections::VecDeque::new()),
            public: broadcast::channel(256).0,
            computer_starts: std::array::from_fn(|_| tokio::sync::Mutex::new(())),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Held by each lobby connection of a player; when the last one is
/// dropped, the player's seeks go (see [`Lobby::left`]). Drop it after the
/// connection's receiver.
pub struct Presence {
    state: AppState,
    user_id: String,
}

impl Presence {
    #[must_use]
    pub fn new(state: &AppState, user: &crate::store::User) -> Presence {
        let mut present = lock(&state.lobby().present);
        present
            .entry(user.id.clone())
            .or_insert_with(|| (user.name.clone(), 0))
            .1 += 1;
        Presence {
            state: state.clone(),
            user_id: user.id.clone(),
        }
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        {
            let mut present = lock(&self.state.lobby().present);
            if let Some(entry) = present.get_mut(&self.user_id) {
                entry.1 -= 1;
                if entry.1 == 0 {
                    present.remove(&self.user_id);
                }
            }
        }
        self.state.lobby().left(&self.user_id);
    }
}

impl Lobby {
    /// Held while one of `user_id`'s computer games is checked against the
    /// cap and made.
    pub async fn computer_start(&self, user_id: &str) -> tokio::sync::MutexGuard<'_, ()> {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        user_id.hash(&mut h);
        let stripe = (h.finish() % self.computer_starts.len() as u64) as usize;
        self.computer_starts[stripe].lock().await
    }

    /// Subscribes to a player's personal events (game started, challenged).
    pub fn subscribe(&self, user_id: &str) -> broadcast::Receiver<Arc<str>> {
        let mut users = lock(&self.users);
        users.retain(|_, tx| tx.receiver_count() > 0);
        users
            .entry(user_id.to_string())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    /// Sends a personal event to a player, if they listen.
    pub fn notify(&self, user_id: &str, event: &LobbyMsg) {
        if let Some(tx) = lock(&self.users).get(user_id) {
            let _ = tx.send(Arc::from(event.to_json()));
        }
    }

    /// The open seeks.
    #[must_use]
    pub fn seeks(&self) -> Vec<SeekView> {
        self.prune(crate::now_ms());
        lock(&self.seeks).iter().map(|s| s.view.clone()).collect()
    }

    /// Drops expired seeks (announcing it) and challenges.
    fn prune(&self, now: i64) {
        let expired: Vec<String> = {
            let mut seeks = lock(&self.seeks);
            let ids = seeks
                .iter()
                .filter(|s| s.expires_ms <= now)
                .map(|s| s.view.id.clone())
                .collect();
            seeks.retain(|s| s.expires_ms > now);
            ids
        };
        for id in expired {
            self.announce(&LobbyMsg::SeekRemoved { id });
        }
        lock(&self.challenges).retain(|_, c| c.expires_ms > now);
    }

    /// Players with a lobby connection open.
    #[must_use]
    pub fn online(&self) -> usize {
        lock(&self.present).len()
    }

    /// The names of the players in the lobby, in name order, at most `max`.
    #[must_use]
    pub fn online_names(&self, max: usize) -> Vec<String> {
        let mut names: Vec<String> = lock(&self.present).values().map(|(n, _)| n.clone()).collect();
        names.sort_by_key(|n| crate::names::key(n));
        names.truncate(max);
        names
    }

    /// Says a line in the lobby chat (checked by the caller) to everyone
    /// there, and keeps it for newcomers.
    pub fn say(&self, from: &str, text: &str) {
        let line = LobbyLine::now(from, text);
        {
            let mut chat = lock(&self.chat);
            chat.push_back(line.clone());
            while chat.len() > CHAT_HISTORY {
                chat.pop_front();
            }
        }
        self.announce(&LobbyMsg::Chat(line));
    }

    /// The lobby chat's last lines, oldest first.
    #[must_use]
    pub fn chat_history(&self) -> Vec<LobbyLine> {
        lock(&self.chat).iter().cloned().collect()
    }

    /// A lobby connection of `user_id` (socket or event stream) ended:
    /// with it gone, a player who has none left is not there to play, so
    /// their seeks go. The connection's receiver must be dropped first.
    pub fn left(&self, user_id: &str) {
        let alone = lock(&self.users)
            .get(user_id)
            .is_none_or(|tx| tx.receiver_count() == 0);
        if alone {
            self.drop_seeks_of(user_id);
        }
    }

    fn announce(&self, event: &LobbyMsg) {
        let _ = self.public.send(Arc::from(event.to_json()));
    }

    /// Removes every seek of a player (when they start a game).
    fn drop_seeks_of(&self, user_id: &str) {
        let removed: Vec<String> = {
            let mut seeks = lock(&self.seeks);
            let ids = seeks
                .iter()
                .filter(|s| s.user.id == user_id)
                .map(|s| s.view.id.clone())
                .collect();
            seeks.retain(|s| s.user.id != user_id);
            ids
        };
        for id in removed {
            self.announce(&LobbyMsg::SeekRemoved { id });
        }
    }
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

fn random_bit() -> Result<bool, ApiError> {
    let mut b = [0u8; 1];
    crate::auth::random_bytes(&mut b)?;
    Ok(b[0] & 1 == 1)
}

/// Whether the player asking with `mine` gets the first side against `theirs`.
fn gets_first(mine: ColorChoice, theirs: ColorChoice) -> Result<bool, ApiError> {
    Ok(match (mine, theirs) {
        (ColorChoice::First, _) | (ColorChoice::Random, ColorChoice::Second) => true,
        (ColorChoice::Second, _) | (ColorChoice::Random, ColorChoice::First) => false,
        (ColorChoice::Random, ColorChoice::Random) => random_bit()?,
    })
}

fn parse_tc(text: &str) -> Result<TimeControl, ApiError> {
    crate::table::parse_time_control(text).map_err(|e| ApiError::bad("bad_time_control", e))
}

/// The longest main time and increment a seek may offer to anyone.
const SEEK_MAX_MAIN_MS: i64 = 180 * 60_000;
const SEEK_MAX_INCREMENT_MS: i64 = 180_000;

/// A seek is offered to everyone in the lobby, so it must be a game anyone
/// could sit down to: a clock, and at most 180 minutes + 180 s (untimed and
/// marathon games, 999+999, are played by challenge, with someone who
/// agreed to them).
fn seekable(tc: &TimeControl) -> Result<(), ApiError> {
    if tc.is_unlimited() {
        return Err(ApiError::bad(
            "untimed_seek",
            "untimed games are played by challenge, not offered to everyone",
        ));
    }
    let (main, inc) = crate::table::headline(tc);
    if main > SEEK_MAX_MAIN_MS || inc > SEEK_MAX_INCREMENT_MS {
        return Err(ApiError::bad(
            "seek_too_long",
            "a seek offers at most 180 minutes and 180 s a move; longer games are played by challenge",
        ));
    }
    Ok(())
}

fn parse_variant(v: Option<&str>) -> Result<&'static registry::Variant, ApiError> {
    registry::get(v).map_err(|e| ApiError::bad("bad_variant", e.to_string()))
}

/// What two people agreed to play.
struct Terms {
    variant: String,
    profile: registry::Profile,
    tc: TimeControl,
    rated: bool,
    fen: Option<String>,
}

/// Starts a game between two people and tells both.
async fn start_between(state: &AppState, red: &User, black: &User, terms: Terms) -> Result<String, ApiError> {
    let id = live::create_game(
        state,
        GameSetup {
            variant: terms.variant,
            profile: terms.profile,
            fen: terms.fen,
            time_control: terms.tc,
            rated: terms.rated,
            first: Seat::person(red),
            second: Seat::person(black),
        },
    )
    .await?;
    let lobby = state.lobby();
    lobby.drop_seeks_of(&red.id);
    lobby.drop_seeks_of(&black.id);
    for (user, side) in [(red, Side::First), (black, Side::Second)] {
        lobby.notify(
            &user.id,
            &LobbyMsg::GameStart {
                game: id.clone(),
                color: side,
            },
        );
    }
    Ok(id)
}

/// Create a seek; it is paired at once with a matching one when there is.
#[utoipa::path(post, path = "/api/seeks", tag = "lobby", request_body = SeekRequest,
    responses((status = 200, body = SeekResult), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody)))]
pub async fn create_seek(
    State(state): State<AppState>,
    Auth(user): Auth,
    Json(req): Json<SeekRequest>,
) -> Result<Json<SeekResult>, ApiError> {
    let tc = parse_tc(&req.time)?;
    seekable(&tc)?;
    let v = parse_variant(req.variant.as_deref())?;
    let variant = v.id.to_string();
    // The rating the seek shows and is paired by: the player's in the
    // variant's pool.
    let rating = state.store().rating(&user.id, v.rating_pool).await?.rating.rating;
    if req.rated && user.guest {
        return Err(ApiError::Forbidden("guests play casual games only".into()));
    }
    let limits = state.config().lobby_limits;
    let now = crate::now_ms();
    state.lobby().prune(now);
    live::check_untimed_cap(&state, &user, &tc).await?;
    let seek = Seek {
        view: SeekView {
            id: random_id(8)?,
            player: user.name.clone(),
            rating: rating.round(),
            variant,
            time: req.time.trim().to_string(),
            rated: req.rated,
            rating_min: req.rating_min,
            rating_max: req.rating_max,
            color: req.color,
        },
        user,
        tc: tc.clone(),
        expires_ms: now + limits.seek_ttl_ms,
    };
    let partner = {
        let mut seeks = lock(&state.lobby().seeks);
        match seeks.iter().position(|s| matches(s, &seek)) {
            Some(i) => Some(seeks.remove(i)),
            None => {
                // The same seek again (a double click, a resent request)
                // is the seek already there, not a second one.
                if let Some(same) = seeks
                    .iter()
                    .find(|s| s.user.id == seek.user.id && same_terms(s, &seek))
                {
                    return Ok(Json(SeekResult {
                        seek: Some(same.view.id.clone()),
                        game: None,
                        color: None,
                    }));
                }
                let mine = seeks.iter().filter(|s| s.user.id == seek.user.id).count();
                if mine >= limits.seeks_per_user {
                    return Err(ApiError::conflict(
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
        state.lobby().announce(&LobbyMsg::SeekAdded {
            seek: seek.view.clone(),
        });
        return Ok(Json(SeekResult {
            seek: Some(seek.view.id),
            game: None,
            color: None,
        }));
    };
    state
        .lobby()
        .announce(&LobbyMsg::SeekRemoved { id: other.view.id });
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
    let id = start_between(&state, red, black, terms).await?;
    Ok(Json(SeekResult {
        seek: None,
        game: Some(id),
        color: Some(if me_first { Side::First } else { Side::Second }.to_string()),
    }))
}

/// The open seeks.
#[utoipa::path(get, path = "/api/seeks", tag = "lobby", responses((status = 200, body = [SeekView])))]
pub async fn list_seeks(State(state): State<AppState>) -> Json<Vec<SeekView>> {
    Json(state.lobby().seeks())
}

/// Withdraw one of your seeks.
#[utoipa::path(delete, path = "/api/seeks/{id}", tag = "lobby", params(("id" = String, Path)),
    responses((status = 204), (status = 404, body = crate::error::ErrorBody)))]
pub async fn delete_seek(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let removed = {
        let mut seeks = lock(&state.lobby().seeks);
        let before = seeks.len();
        seeks.retain(|s| !(s.view.id == id && s.user.id == user.id));
        before != seeks.len()
    };
    if !removed {
        return Err(ApiError::NotFound(format!("seek {id}")));
    }
    state.lobby().announce(&LobbyMsg::SeekRemoved { id });
    Ok(StatusCode::NO_CONTENT)
}

/// Challenge a player directly.
#[utoipa::path(post, path = "/api/challenges", tag = "lobby", request_body = ChallengeRequest,
    responses((status = 201, body = ChallengeView), (status = 404, body = crate::error::ErrorBody)))]
pub async fn create_challenge(
    State(state): State<AppState>,
    Auth(user): Auth,
    Json(req): Json<ChallengeRequest>,
) -> Result<(StatusCode, Json<ChallengeView>), ApiError> {
    let tc = parse_tc(&req.time)?;
    let v = parse_variant(req.variant.as_deref())?;
    let variant = v.id.to_string();
    let to = state
        .store()
        .user_by_name(&req.to)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("player {}", req.to)))?;
    if to.id == user.id {
        return Err(ApiError::bad("self_challenge", "you cannot challenge yourself"));
    }
    if req.rated && (user.guest || to.guest) {
        return Err(ApiError::Forbidden("guests play casual games only".into()));
    }
    if let Some(fen) = &req.fen {
        if req.rated {
            return Err(ApiError::bad(
                "rated_from_position",
                "rated games start from the usual position",
            ));
        }
        v.new_game(Some(fen), 0)
            .map_err(|e| ApiError::bad("bad_fen", e.to_string()))?;
    }
    live::check_untimed_cap(&state, &user, &tc).await?;
    let limits = state.config().lobby_limits;
    let now = crate::now_ms();
    state.lobby().prune(now);
    let view = ChallengeView {
        id: random_id(8)?,
        from: user.name.clone(),
        to: to.name.clone(),
        variant,
        time: req.time.trim().to_string(),
        rated: req.rated,
        color: req.color,
        fen: req.fen.clone(),
        rules: req.rules,
    };
    {
        let mut all = lock(&state.lobby().challenges);
        let sent = all.values().filter(|c| c.from.id == user.id).count();
        if sent >= limits.challenges_per_sender {
            return Err(ApiError::conflict(
                "too_many_challenges",
                format!("you have {sent} unanswered challenges; wait for answers or withdraw one"),
            ));
        }
        let waiting = all.values().filter(|c| c.to_id == to.id).count();
        if waiting >= limits.challenges_per_recipient {
            return Err(ApiError::conflict(
                "recipient_busy",
                format!("{} has {waiting} challenges waiting; try again later", to.name),
            ));
        }
        all.insert(
            view.id.clone(),
            Challenge {
                view: view.clone(),
                from: user,
                to_id: to.id.clone(),
                tc,
                expires_ms: now + limits.challenge_ttl_ms,
            },
        );
    }
    state.lobby().notify(
        &to.id,
        &LobbyMsg::Challenge {
            challenge: view.clone(),
        },
    );
    Ok((StatusCode::CREATED, Json(view)))
}

/// Challenges waiting for your answer, and yours waiting for others.
#[utoipa::path(get, path = "/api/challenges", tag = "lobby", responses((status = 200, body = [ChallengeView])))]
pub async fn list_challenges(State(state): State<AppState>, Auth(user): Auth) -> Json<Vec<ChallengeView>> {
    state.lobby().prune(crate::now_ms());
    Json(
        lock(&state.lobby().challenges)
            .values()
            .filter(|c| c.to_id == user.id || c.from.id == user.id)
            .map(|c| c.view.clone())
            .collect(),
    )
}

/// Accept a challenge addressed to you: the game starts.
#[utoipa::path(post, path = "/api/challenges/{id}/accept", tag = "lobby", params(("id" = String, Path)),
    responses((status = 200, body = GameStarted), (status = 404, body = crate::error::ErrorBody)))]
pub async fn accept_challenge(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<Json<GameStarted>, ApiError> {
    state.lobby().prune(crate::now_ms());
    let c = {
        let mut all = lock(&state.lobby().challenges);
        match all.get(&id) {
            Some(c) if c.to_id == user.id => all.remove(&id),
            _ => None,
        }
    }
    .ok_or_else(|| ApiError::NotFound(format!("challenge {id}")))?;
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
    let game = start_between(&state, red, black, terms).await?;
    Ok(Json(GameStarted {
        game,
        color: if challenger_first {
            Side::Second
        } else {
            Side::First
        }
        .to_string(),
    }))
}

/// Decline (or, as the challenger, withdraw) a challenge.
#[utoipa::path(post, path = "/api/challenges/{id}/decline", tag = "lobby", params(("id" = String, Path)),
    responses((status = 204), (status = 404, body = crate::error::ErrorBody)))]
pub async fn decline_challenge(
    State(state): State<AppState>,
    Auth(user): Auth,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let c = {
        let mut all = lock(&state.lobby().challenges);
        match all.get(&id) {
            Some(c) if c.to_id == user.id || c.from.id == user.id => all.remove(&id),
            _ => None,
        }
    }
    .ok_or_else(|| ApiError::NotFound(format!("challenge {id}")))?;
    let ev = LobbyMsg::ChallengeDeclined { id, by: user.name };
    state.lobby().notify(&c.from.id, &ev);
    state.lobby().notify(&c.to_id, &ev);
    Ok(StatusCode::NO_CONTENT)
}

/// Play the computer (built-in levels 1–8, or an operator-configured engine).
#[utoipa::path(post, path = "/api/computer", tag = "lobby", request_body = ComputerRequest,
    responses((status = 200, body = GameStarted), (status = 400, body = crate::error::ErrorBody)))]
pub async fn play_computer(
    State(state): State<AppState>,
    Auth(user): Auth,
    Json(req): Json<ComputerRequest>,
) -> Result<Json<GameStarted>, ApiError> {
    let tc = parse_tc(&req.time)?;
    let v = parse_variant(req.variant.as_deref())?;
    let variant = v.id.to_string();
    let spec = match (req.level, &req.engine) {
        (Some(l), None) => format!("level:{l}"),
        (None, Some(e)) => format!("engine:{e}"),
        _ => {
            return Err(ApiError::bad(
                "bad_computer",
                "give either a level (1-8) or an engine name",
            ))
        }
    };
    if !state.computers().knows(v, &spec) {
        return Err(ApiError::bad(
            "bad_computer",
            format!("no computer player {spec}"),
        ));
    }
    // One account cannot take every computer (see computer.rs): a few
    // games at once, finished or resigned before more.
    let _one_at_a_time = state.lobby().computer_start(&user.id).await;
    live::check_untimed_cap(&state, &user, &tc).await?;
    let open = state.store().live_computer_games(&user.id).await?;
    if open >= crate::computer::MAX_GAMES_PER_USER {
        return Err(ApiError::conflict(
            "too_many_computer_games",
            format!(
                "you already play {open} games against the computer; finish one first (at most {})",
                crate::computer::MAX_GAMES_PER_USER
            ),
        ));
    }
    let me_first = gets_first(req.color, ColorChoice::Random)?;
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
        &state,
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
    state.lobby().notify(
        &user.id,
        &LobbyMsg::GameStart {
            game: game.clone(),
            color: my_side,
        },
    );
    Ok(Json(GameStarted {
        game,
        color: my_side.to_string(),
    }))
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
