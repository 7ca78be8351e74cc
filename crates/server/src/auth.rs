//! Accounts and who is asking: registration, login, logout, guests, bot
//! tokens, the session cookie, CSRF protection and the login rate limit.
//!
//! * Passwords are hashed with argon2id (the `argon2` crate's defaults:
//!   19 MiB, 2 passes), off the async threads.
//! * A session is a random 256-bit token. The browser holds it in an
//!   `HttpOnly; SameSite=Lax` cookie; the database stores only its SHA-256,
//!   so a leaked database does not leak sessions. Logout deletes the row:
//!   the same cookie replayed afterwards is refused.
//! * Bots use a bearer token (`Authorization: Bearer …`) made by
//!   `POST /api/account/token`, stored the same way.
//! * CSRF: every state-changing request authenticated by the cookie must
//!   carry the header `X-Qiju-Csrf` (a page on another site cannot add a
//!   custom header without a CORS preflight, which we never grant), and an
//!   `Origin` header, when present, must name this server's host.
//! * Login attempts are limited per client IP and per account name.

use crate::error::ApiError;
use crate::store::{PoolRating, User};
use crate::AppState;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::header::{AUTHORIZATION, COOKIE, HOST, ORIGIN, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use utoipa::ToSchema;

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "qiju_session";
/// The header every cookie-authenticated state change must carry.
pub const CSRF_HEADER: &str = "x-qiju-csrf";
const SESSION_DAYS: i64 = 30;
const DAY_MS: i64 = 86_400_000;

/// Fills `buf` from the operating system's random source.
pub fn random_bytes(buf: &mut [u8]) -> Result<(), ApiError> {
    getrandom::fill(buf).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))
}

/// A random id of `len` characters from `[0-9a-zA-Z]`.
pub fn random_id(len: usize) -> Result<String, ApiError> {
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut bytes = vec![0u8; len];
    random_bytes(&mut bytes)?;
    // 62 does not divide 256; the bias (< 2%) does not matter for ids.
    Ok(bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect())
}

/// A random number, e.g. to draw a Chess960 start position.
pub fn random_u32() -> Result<u32, ApiError> {
    let mut bytes = [0u8; 4];
    random_bytes(&mut bytes)?;
    Ok(u32::from_le_bytes(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What the database stores for a token.
#[must_use]
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn new_token() -> Result<String, ApiError> {
    let mut b = [0u8; 32];
    random_bytes(&mut b)?;
    Ok(hex(&b))
}

/// Reads one cookie's value from the `Cookie` headers.
#[must_use]
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The session token of a request and whether it came as a bearer token.
fn request_token(headers: &HeaderMap) -> Option<(&str, bool)> {
    if let Some(v) = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        if let Some(t) = v.strip_prefix("Bearer ") {
            return Some((t.trim(), true));
        }
    }
    cookie(headers, SESSION_COOKIE).map(|t| (t, false))
}

/// Finds the user a request is authenticated as, if any.
pub async fn user_of(state: &AppState, headers: &HeaderMap) -> Result<Option<User>, ApiError> {
    let Some((token, _)) = request_token(headers) else {
        return Ok(None);
    };
    if token.len() != 64 {
        return Ok(None);
    }
    // A banned player's sessions are deleted with the ban; this covers a
    // ban written while a request was on its way.
    Ok(state
        .store()
        .session_user(&token_hash(token), crate::now_ms())
        .await?
        .filter(|u| !u.banned))
}

/// Extractor: the logged-in user (or guest), else 401.
pub struct Auth(pub User);

impl FromRequestParts<AppState> for Auth {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        user_of(state, &parts.headers)
            .await?
            .map(Auth)
            .ok_or(ApiError::Unauthorized)
    }
}

/// Extractor: the user if logged in; spectators need not be.
pub struct MaybeAuth(pub Option<User>);

impl FromRequestParts<AppState> for MaybeAuth {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        Ok(MaybeAuth(user_of(state, &parts.headers).await?))
    }
}

/// Whether an `Origin` header (when there is one) names this server.
#[must_use]
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true; // not a browser request (curl, a bot)
    };
    let Some(host) = headers.get(HOST).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or("");
    origin_host == host
}

/// Middleware refusing cross-site state changes (see the module doc).
pub async fn csrf_guard(req: Request, next: Next) -> Response {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe {
        let h = req.headers();
        if !same_origin(h) {
            return ApiError::Forbidden("cross-origin request refused".into()).into_response();
        }
        let bearer = h
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("Bearer "));
        if !bearer && !h.contains_key(CSRF_HEADER) {
            return (
                StatusCode::FORBIDDEN,
                Json(crate::error::ErrorBody {
                    error: "csrf".into(),
                    message: format!("state-changing requests need the {CSRF_HEADER} header"),
                }),
            )
                .into_response();
        }
    }
    next.run(req).await
}

/// A sliding-window counter of attempts per key.
#[derive(Debug)]
pub struct RateLimiter {
    max: usize,
    window_ms: i64,
    hits: Mutex<HashMap<String, VecDeque<i64>>>,
}

impl RateLimiter {
    #[must_use]
    pub fn new(max: usize, window_ms: i64) -> RateLimiter {
        RateLimiter {
            max,
            window_ms,
            hits: Mutex::new(HashMap::new()),
        }
    }

    /// Checks and counts an attempt in one step: of any number of
    /// attempts arriving together, exactly the allowed ones pass. A
    /// limiter made with `max` 0 lets everything through.
    ///
    /// # Errors
    /// The seconds to wait when `key` has used up its attempts.
    pub fn try_hit(&self, key: &str, now_ms: i64) -> Result<(), u64> {
        if self.max == 0 {
            return Ok(());
        }
        let mut map = self
            .hits
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if map.len() > 100_000 {
            // Bound memory under a flood of distinct keys.
            let cutoff = now_ms - self.window_ms;
            map.retain(|_, q| q.back().is_some_and(|&t| t > cutoff));
        }
        let q = map.entry(key.to_string()).or_default();
        while q.front().is_some_and(|&t| t <= now_ms - self.window_ms) {
            q.pop_front();
        }
        if q.len() >= self.max {
            let oldest = q.front().copied().unwrap_or(now_ms);
            let wait = (oldest + self.window_ms - now_ms).max(1000) / 1000;
            return Err(u64::try_from(wait).unwrap_or(1));
        }
        q.push_back(now_ms);
        Ok(())
    }

    pub fn clear(&self, key: &str) {
        let mut map = self
            .hits
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.remove(key);
    }
}

/// The login limits, each within a sliding window: all attempts per client
/// IP, and failed attempts per account *and* client IP. Keyed by both, so
/// that guessing from elsewhere never locks the owner out of their account
/// (a per-account lock would let anyone lock anyone out); an attacker with
/// many addresses is held by the per-IP limit of each and by the bounded
/// hashing pool, which caps the work and memory all attempts together can
/// cost.
#[derive(Clone, Copy, Debug)]
pub struct LoginLimits {
    pub per_ip: usize,
    /// Failed logins per (account, client IP).
    pub per_account: usize,
    pub window_ms: i64,
    /// Password hashes computed at once (threads of `HashPool`): each
    /// argon2id hash holds about 19 MiB, so this bounds the memory a flood
    /// of logins or registrations can take; the rest wait their turn.
    pub max_hashes: usize,
}

impl Default for LoginLimits {
    fn default() -> Self {
        LoginLimits {
            per_ip: 30,
            per_account: 10,
            window_ms: 5 * 60_000,
            max_hashes: 4,
        }
    }
}

/// How many accounts may be made: registrations and guests, each per
/// client IP and for the whole server, in sliding windows. Registrations
/// cost an argon2 hash and a row each, guests a row: without these one
/// address made 1,857 guests in 5 s. 0 = no limit (a load test, a server
/// behind a proxy that limits for it).
#[derive(Clone, Copy, Debug)]
pub struct AccountLimits {
    pub registrations_per_ip: usize,
    pub registrations_global: usize,
    pub guests_per_ip: usize,
    pub guests_global: usize,
    /// The window of the per-IP limits; the global ones count per minute.
    pub window_ms: i64,
}

impl Default for AccountLimits {
    fn default() -> Self {
        AccountLimits {
            registrations_per_ip: 10,
            registrations_global: 120,
            guests_per_ip: 30,
            guests_global: 600,
            window_ms: 3_600_000,
        }
    }
}

/// Every rate limiter of the accounts API.
#[derive(Debug)]
pub struct Limiters {
    pub login_ip: RateLimiter,
    pub login_account: RateLimiter,
    pub register_ip: RateLimiter,
    pub register_all: RateLimiter,
    pub guest_ip: RateLimiter,
    pub guest_all: RateLimiter,
    /// Chat lines per player: 5 per 10 s.
    pub chat: RateLimiter,
}

impl Limiters {
    #[must_use]
    pub fn new(login: LoginLimits, accounts: AccountLimits) -> Limiters {
        Limiters {
            login_ip: RateLimiter::new(login.per_ip, login.window_ms),
            login_account: RateLimiter::new(login.per_account, login.window_ms),
            register_ip: RateLimiter::new(accounts.registrations_per_ip, accounts.window_ms),
            register_all: RateLimiter::new(accounts.registrations_global, 60_000),
            guest_ip: RateLimiter::new(accounts.guests_per_ip, accounts.window_ms),
            guest_all: RateLimiter::new(accounts.guests_global, 60_000),
            chat: RateLimiter::new(5, 10_000),
        }
    }
}

#[derive(Deserialize, ToSchema)]
pub struct Credentials {
    /// 2–20 letters (any script), digits, `_` or `-`; unique after Unicode
    /// NFKC and case folding.
    pub name: String,
    /// 8–256 characters.
    pub password: String,
}

/// A player as others see them.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct UserView {
    pub id: String,
    pub name: String,
    pub guest: bool,
    /// Rating and rated games in the pool of titles (Xiangqi's, the default
    /// game's); every pool is in `ratings`.
    pub rating: f64,
    pub rated_games: u32,
    /// Rating title, e.g. 五级棋士; `null` = 无称号 (no title yet).
    pub title: Option<String>,
    /// Rated games against titled players (20 needed for a title).
    pub titled_games: u32,
    /// Real-world title, shown separately (国家大师 …).
    pub real_title: Option<String>,
    /// The player's rating in each pool they have played rated games in.
    pub ratings: Vec<PoolRatingView>,
}

/// A rating in one pool.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct PoolRatingView {
    /// `xiangqi`, `chess`, `chess960`.
    pub pool: String,
    pub rating: f64,
    pub rated_games: u32,
}

/// A player's rating title (seed 003) from their rating in the pool of
/// titles, in Chinese; an awarded title (特级大师 …) stands whatever the
/// rating.
#[must_use]
pub fn title_of(u: &User, r: &PoolRating) -> Option<String> {
    let awarded = u.awarded_title.as_deref().and_then(|t| t.parse().ok());
    rating::title(r.rating.rating, r.titled_games, awarded).map(|t| t.chinese().to_string())
}

impl UserView {
    /// The view of `u` with their ratings in every pool.
    #[must_use]
    pub fn of(u: &User, ratings: &[PoolRating]) -> UserView {
        let real: Option<rating::RealTitle> = u.real_title.as_deref().and_then(|t| t.parse().ok());
        let title_pool = registry::get(None).map_or("xiangqi", |v| v.rating_pool);
        let titled = ratings
            .iter()
            .find(|r| r.pool == title_pool)
            .cloned()
            .unwrap_or(PoolRating {
                pool: title_pool.to_string(),
                rating: rating::PlayerRating::default(),
                titled_games: 0,
            });
        UserView {
            id: u.id.clone(),
            name: u.name.clone(),
            guest: u.guest,
            rating: titled.rating.rating.round(),
            rated_games: titled.rating.games,
            title: title_of(u, &titled),
            titled_games: titled.titled_games,
            real_title: real.map(|t| t.chinese().to_string()),
            ratings: ratings
                .iter()
                .map(|r| PoolRatingView {
                    pool: r.pool.clone(),
                    rating: r.rating.rating.round(),
                    rated_games: r.rating.games,
                })
                .collect(),
        }
    }

    /// The view of `u`, reading their ratings.
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn load(state: &AppState, u: &User) -> Result<UserView, ApiError> {
        Ok(UserView::of(u, &state.store().ratings_of(&u.id).await?))
    }
}

fn session_cookie(state: &AppState, token: &str, max_age_s: i64) -> HeaderValue {
    let secure = if state.config().secure_cookies {
        "; Secure"
    } else {
        ""
    };
    let v = format!("{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_s}{secure}");
    HeaderValue::from_str(&v).unwrap_or_else(|_| HeaderValue::from_static(""))
}

async fn open_session(state: &AppState, user: &User, kind: &str) -> Result<String, ApiError> {
    let token = new_token()?;
    let now = crate::now_ms();
    state
        .store()
        .create_session(
            &token_hash(&token),
            &user.id,
            kind,
            now,
            now + SESSION_DAYS * DAY_MS,
        )
        .await?;
    Ok(token)
}

async fn logged_in(
    state: &AppState,
    status: StatusCode,
    user: &User,
    token: &str,
) -> Result<Response, ApiError> {
    let mut resp = (status, Json(UserView::load(state, user).await?)).into_response();
    resp.headers_mut()
        .insert(SET_COOKIE, session_cookie(state, token, SESSION_DAYS * 86_400));
    Ok(resp)
}

/// A few threads of their own that compute password hashes, one at a time
/// each, every thread with its one argon2 buffer (see [`crate::password`]):
/// the number of threads bounds the CPU and the memory all logins and
/// registrations together can take. The rest wait in the queue, holding
/// only their passwords.
#[derive(Debug)]
pub struct HashPool {
    jobs: std::sync::mpsc::Sender<Box<dyn FnOnce() + Send>>,
}

impl HashPool {
    #[must_use]
    pub fn new(threads: usize) -> HashPool {
        let (jobs, queue) = std::sync::mpsc::channel::<Box<dyn FnOnce() + Send>>();
        let queue = std::sync::Arc::new(Mutex::new(queue));
        for i in 0..threads.max(1) {
            let queue = queue.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("qiju-hash-{i}"))
                .spawn(move || loop {
                    let job = queue
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .recv();
                    match job {
                        Ok(job) => job(),
                        Err(_) => break, // the server is gone
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a password-hashing thread");
            }
        }
        HashPool { jobs }
    }

    /// Runs `f` on a hashing thread and waits for its answer.
    async fn run<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.jobs
            .send(Box::new(move || {
                let _ = tx.send(f());
            }))
            .map_err(|_| ApiError::Internal("the password hashing threads are gone".into()))?;
        rx.await
            .map_err(|_| ApiError::Internal("a password hash failed".into()))
    }
}

async fn hash_password(state: &AppState, password: String) -> Result<String, ApiError> {
    let mut salt = [0u8; 16];
    random_bytes(&mut salt)?;
    state
        .hashing()
        .run(move || crate::password::hash(&password, &salt).map_err(ApiError::Internal))
        .await?
}

async fn verify_password(state: &AppState, password: String, hash: String) -> bool {
    state
        .hashing()
        .run(move || crate::password::verify(&password, &hash))
        .await
        .unwrap_or(false)
}

/// Register an account and log in.
#[utoipa::path(post, path = "/api/auth/register", tag = "auth",
    request_body = Credentials,
    responses((status = 201, description = "Registered and logged in (sets the session cookie)", body = UserView),
              (status = 400, body = crate::error::ErrorBody), (status = 409, description = "Name taken", body = crate::error::ErrorBody)))]
pub async fn register(
    State(state): State<AppState>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<SocketAddr>,
    Json(c): Json<Credentials>,
) -> Result<Response, ApiError> {
    let name = crate::names::display(&c.name);
    if !crate::names::valid(&name) {
        return Err(ApiError::bad(
            "bad_name",
            "a name has 2-20 letters (any script), digits, '_' or '-'",
        ));
    }
    if crate::names::reserved(&name) {
        return Err(ApiError::bad(
            "reserved_name",
            format!("the name {name} is kept for the platform"),
        ));
    }
    if !(8..=256).contains(&c.password.chars().count()) {
        return Err(ApiError::bad("bad_password", "a password has 8-256 characters"));
    }
    if let Some(other) = state.store().user_looking_like(&name).await? {
        return Err(if crate::names::key(&other.name) == crate::names::key(&name) {
            ApiError::conflict("name_taken", format!("the name {name} is taken"))
        } else {
            ApiError::conflict(
                "name_confusable",
                format!("the name {name} reads like {}'s; choose another", other.name),
            )
        });
    }
    let limits = &state.limiters();
    count(&limits.register_ip, &ip_key(peer.ip()))?;
    count(&limits.register_all, "")?;
    let hash = hash_password(&state, c.password).await?;
    let id = random_id(12)?;
    let user = state
        .store()
        .create_user(&id, &name, Some(&hash), false, crate::now_ms())
        .await?
        .ok_or_else(|| ApiError::conflict("name_taken", format!("the name {name} is taken")))?;
    let token = open_session(&state, &user, "cookie").await?;
    logged_in(&state, StatusCode::CREATED, &user, &token).await
}

/// Log in with a name and password.
#[utoipa::path(post, path = "/api/auth/login", tag = "auth",
    request_body = Credentials,
    responses((status = 200, description = "Logged in (sets the session cookie)", body = UserView),
              (status = 401, body = crate::error::ErrorBody), (status = 429, description = "Too many attempts", body = crate::error::ErrorBody)))]
pub async fn login(
    State(state): State<AppState>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<SocketAddr>,
    Json(c): Json<Credentials>,
) -> Result<Response, ApiError> {
    let now = crate::now_ms();
    let ip_key = ip_key(peer.ip());
    // An attempt counts as a failure from the moment it starts, before the
    // password is checked, and is forgiven when it succeeds: attempts made
    // at the same time cannot all slip under the limit.
    let account_key = format!("{}\u{0}{ip_key}", crate::names::key(&c.name));
    let limits = state.limiters();
    limits
        .login_ip
        .try_hit(&ip_key, now)
        .map_err(|s| ApiError::TooManyRequests { retry_after_s: s })?;
    limits
        .login_account
        .try_hit(&account_key, now)
        .map_err(|s| ApiError::TooManyRequests { retry_after_s: s })?;
    let user = state.store().user_by_name(&c.name).await?;
    let ok = match &user {
        Some(u) => match &u.password_hash {
            Some(h) => verify_password(&state, c.password, h.clone()).await,
            None => false,
        },
        None => {
            // Spend the same time as a real check, so timing does not tell
            // which names exist.
            let _ = hash_password(&state, c.password).await;
            false
        }
    };
    let (Some(user), true) = (user, ok) else {
        return Err(ApiError::Unauthorized);
    };
    if user.banned {
        return Err(ApiError::Banned);
    }
    limits.login_account.clear(&account_key);
    let token = open_session(&state, &user, "cookie").await?;
    logged_in(&state, StatusCode::OK, &user, &token).await
}

fn ip_key(ip: IpAddr) -> String {
    ip.to_string()
}

/// Counts one creation against a limiter, or says how long to wait.
fn count(limiter: &RateLimiter, key: &str) -> Result<(), ApiError> {
    limiter
        .try_hit(key, crate::now_ms())
        .map_err(|s| ApiError::TooManyRequests { retry_after_s: s })
}

/// Log out: the session is deleted, the cookie cleared.
#[utoipa::path(post, path = "/api/auth/logout", tag = "auth",
    responses((status = 204, description = "Logged out")))]
pub async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some((token, _)) = request_token(&headers) {
        state.store().delete_session(&token_hash(token)).await?;
    }
    let mut resp = StatusCode::NO_CONTENT.into_response();
    resp.headers_mut()
        .insert(SET_COOKIE, session_cookie(&state, "", 0));
    Ok(resp)
}

/// Log out on every device: all of the account's sessions and bearer
/// tokens end (e.g. after a password may have leaked).
#[utoipa::path(post, path = "/api/auth/logout-everywhere", tag = "auth",
    responses((status = 200, description = "Sessions and tokens ended", body = Revoked),
              (status = 401, body = crate::error::ErrorBody)))]
pub async fn logout_everywhere(
    State(state): State<AppState>,
    Auth(user): Auth,
) -> Result<Response, ApiError> {
    let ended = state.store().delete_sessions_of(&user.id, None).await?;
    let mut resp = Json(Revoked { ended }).into_response();
    resp.headers_mut()
        .insert(SET_COOKIE, session_cookie(&state, "", 0));
    Ok(resp)
}

/// How many sessions or tokens ended.
#[derive(Serialize, ToSchema)]
pub struct Revoked {
    pub ended: u64,
}

/// Which bearer tokens to revoke.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct RevokeRequest {
    /// One token; when absent, every bearer token of the account. The
    /// browser session stays either way.
    #[serde(default)]
    pub token: Option<String>,
}

/// Revoke bearer tokens: one (given) or all of the account's. A revoked
/// token is refused from the next request on.
#[utoipa::path(post, path = "/api/account/tokens/revoke", tag = "auth",
    request_body = RevokeRequest,
    responses((status = 200, body = Revoked), (status = 401, body = crate::error::ErrorBody)))]
pub async fn revoke_tokens(
    State(state): State<AppState>,
    Auth(user): Auth,
    Json(r): Json<RevokeRequest>,
) -> Result<Json<Revoked>, ApiError> {
    let ended = match r.token {
        Some(t) => {
            let hash = token_hash(&t);
            // Only a token of this account, and only a bearer token.
            match state.store().session_of(&hash).await? {
                Some((owner, kind)) if owner == user.id && kind == "token" => {
                    state.store().delete_session(&hash).await?;
                    1
                }
                _ => 0,
            }
        }
        None => state.store().delete_sessions_of(&user.id, Some("token")).await?,
    };
    Ok(Json(Revoked { ended }))
}

/// How a player's boards look, kept with the account so it follows them
/// to every browser.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub board_theme: BoardTheme,
    pub piece_set: PieceSet,
    /// Files and ranks drawn beside the board.
    pub coordinates: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            board_theme: BoardTheme::Wood,
            piece_set: PieceSet::Chinese,
            coordinates: true,
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

/// Your board settings (the defaults until you change them).
#[utoipa::path(get, path = "/api/account/settings", tag = "auth",
    responses((status = 200, body = Settings), (status = 401, body = crate::error::ErrorBody)))]
pub async fn get_settings(
    State(state): State<AppState>,
    Auth(user): Auth,
) -> Result<Json<Settings>, ApiError> {
    let stored = state.store().settings(&user.id).await?;
    // A row written by another version that no longer reads: the defaults.
    Ok(Json(
        stored
            .and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or_default(),
    ))
}

/// Keep your board settings with your account.
#[utoipa::path(put, path = "/api/account/settings", tag = "auth", request_body = Settings,
    responses((status = 200, body = Settings), (status = 401, body = crate::error::ErrorBody)))]
pub async fn put_settings(
    State(state): State<AppState>,
    Auth(user): Auth,
    Json(settings): Json<Settings>,
) -> Result<Json<Settings>, ApiError> {
    let json = serde_json::to_string(&settings).map_err(|e| ApiError::Internal(e.to_string()))?;
    state.store().set_settings(&user.id, &json).await?;
    Ok(Json(settings))
}

/// Play as a guest (casual games only): makes a guest identity and logs it in.
#[utoipa::path(post, path = "/api/auth/guest", tag = "auth",
    responses((status = 201, description = "Guest created (sets the session cookie)", body = UserView)))]
pub async fn guest(
    State(state): State<AppState>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<SocketAddr>,
) -> Result<Response, ApiError> {
    let limits = &state.limiters();
    count(&limits.guest_ip, &ip_key(peer.ip()))?;
    count(&limits.guest_all, "")?;
    let id = random_id(12)?;
    let name = format!("Guest-{}", random_id(8)?);
    let user = state
        .store()
        .create_user(&id, &name, None, true, crate::now_ms())
        .await?
        .ok_or_else(|| ApiError::Internal("guest name clash".into()))?;
    let token = open_session(&state, &user, "cookie").await?;
    logged_in(&state, StatusCode::CREATED, &user, &token).await
}

/// The logged-in account.
#[utoipa::path(get, path = "/api/account", tag = "auth",
    responses((status = 200, body = UserView), (status = 401, body = crate::error::ErrorBody)))]
pub async fn account(State(state): State<AppState>, Auth(user): Auth) -> Result<Json<UserView>, ApiError> {
    Ok(Json(UserView::load(&state, &user).await?))
}

#[derive(Serialize, ToSchema)]
pub struct TokenView {
    /// Send as `Authorization: Bearer <token>`; shown only once.
    pub token: String,
}

/// Make a bearer token for a bot or script (no cookie, no CSRF header needed).
#[utoipa::path(post, path = "/api/account/token", tag = "auth",
    responses((status = 201, body = TokenView), (status = 401, body = crate::error::ErrorBody)))]
pub async fn make_token(
    State(state): State<AppState>,
    Auth(user): Auth,
) -> Result<(StatusCode, Json<TokenView>), ApiError> {
    let token = open_session(&state, &user, "token").await?;
    Ok((StatusCode::CREATED, Json(TokenView { token })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_parse() {
        let mut h = HeaderMap::new();
        h.insert(COOKIE, HeaderValue::from_static("a=1; qiju_session=abc; b=2"));
        assert_eq!(cookie(&h, SESSION_COOKIE), Some("abc"));
        assert_eq!(cookie(&h, "c"), None);
    }

    #[test]
    fn rate_limiter_blocks_then_frees() {
        let r = RateLimiter::new(2, 1000);
        assert!(r.try_hit("k", 0).is_ok());
        assert!(r.try_hit("k", 10).is_ok());
        assert_eq!(r.try_hit("k", 20), Err(1), "the third within the window waits");
        assert!(r.try_hit("other", 20).is_ok());
        assert!(r.try_hit("k", 999).is_err());
        // The first attempt has left the window; a refused one never counted.
        assert!(r.try_hit("k", 1001).is_ok());
        assert!(r.try_hit("k", 1005).is_err());
        r.clear("k");
        assert!(r.try_hit("k", 1006).is_ok());
    }

    #[test]
    fn origin_must_match_host() {
        let mut h = HeaderMap::new();
        assert!(same_origin(&h));
        h.insert(HOST, HeaderValue::from_static("127.0.0.1:8080"));
        h.insert(ORIGIN, HeaderValue::from_static("http://127.0.0.1:8080"));
        assert!(same_origin(&h));
        h.insert(ORIGIN, HeaderValue::from_static("http://evil.example"));
        assert!(!same_origin(&h));
    }
}
