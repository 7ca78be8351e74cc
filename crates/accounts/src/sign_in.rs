//! Proving who you are: registration, login, guests, logout, bot tokens,
//! and the token a request carries read back into its account.

use crate::limits::count;
use crate::Accounts;
use common::names;
use common::Error;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::net::IpAddr;
use store::User;
use utoipa::ToSchema;

const SESSION_DAYS: i64 = 30;
const DAY_MS: i64 = 86_400_000;
/// How long a login lasts, in seconds (the cookie's `Max-Age`).
pub const SESSION_MAX_AGE_S: i64 = SESSION_DAYS * 86_400;

/// A name and a password, to register or log in.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 2–20 letters (any script), digits, `_` or `-`; unique after Unicode
    /// NFKC and case folding.
    pub name: String,
    /// 8–256 characters.
    pub password: String,
}

/// A new session: the account and its token (shown once, stored hashed).
#[derive(Debug)]
pub struct SignedIn {
    pub user: User,
    pub token: String,
}

/// How a request carries its token: the browser's cookie, or a bot's
/// `Authorization: Bearer` header. Each kind of session is accepted only
/// the way it was given out: a cookie's value sent as a bearer token would
/// skip the CSRF check that cookie requests must pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Cookie,
    Bearer,
}

impl TokenKind {
    /// The session kind as stored.
    fn stored(self) -> &'static str {
        match self {
            TokenKind::Cookie => "cookie",
            TokenKind::Bearer => "token",
        }
    }
}

/// How many sessions or tokens ended.
#[derive(Serialize, ToSchema)]
pub struct Revoked {
    pub ended: u64,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What the database stores for a token.
#[must_use]
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn new_token() -> Result<String, Error> {
    let mut b = [0u8; 32];
    common::random_bytes(&mut b)?;
    Ok(hex(&b))
}

fn ip_key(ip: IpAddr) -> String {
    ip.to_string()
}

impl Accounts {
    /// The account a session (`Cookie`) or bot token (`Bearer`) belongs
    /// to, if it is live, of that kind, and the account not banned.
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn user_of_token(&self, token: &str, kind: TokenKind) -> Result<Option<User>, Error> {
        if token.len() != 64 {
            return Ok(None);
        }
        // A banned player's sessions are deleted with the ban; this covers a
        // ban written while a request was on its way.
        Ok(self
            .store
            .session_user(&token_hash(token), kind.stored(), common::now_ms())
            .await?
            .filter(|u| !u.banned))
    }

    /// Registers an account and logs it in.
    ///
    /// # Errors
    /// `bad_name`, `reserved_name`, `bad_password`, `name_taken`,
    /// `name_confusable`, too many registrations, or storage.
    pub async fn register(&self, c: Credentials, from: IpAddr) -> Result<SignedIn, Error> {
        let name = names::display(&c.name);
        if !names::valid(&name) {
            return Err(Error::bad(
                "bad_name",
                "a name has 2-20 letters (any script), digits, '_' or '-'",
            ));
        }
        if names::reserved(&name) {
            return Err(Error::bad(
                "reserved_name",
                format!("the name {name} is kept for the platform"),
            ));
        }
        if !(8..=256).contains(&c.password.chars().count()) {
            return Err(Error::bad("bad_password", "a password has 8-256 characters"));
        }
        if let Some(other) = self.store.user_looking_like(&name).await? {
            return Err(if names::key(&other.name) == names::key(&name) {
                Error::conflict("name_taken", format!("the name {name} is taken"))
            } else {
                Error::conflict(
                    "name_confusable",
                    format!("the name {name} reads like {}'s; choose another", other.name),
                )
            });
        }
        count(&self.limiters.register_ip, &ip_key(from))?;
        count(&self.limiters.register_all, "")?;
        let hash = self.hashing.hash(c.password).await?;
        let id = common::random_id(12)?;
        let user = self
            .store
            .create_user(&id, &name, Some(&hash), false, common::now_ms())
            .await?
            .ok_or_else(|| Error::conflict("name_taken", format!("the name {name} is taken")))?;
        self.open_session(user, "cookie").await
    }

    /// Logs in with a name and password.
    ///
    /// # Errors
    /// Too many attempts, a wrong name or password (`unauthorized`, never
    /// saying which), a banned account, or storage.
    pub async fn login(&self, c: Credentials, from: IpAddr) -> Result<SignedIn, Error> {
        let now = common::now_ms();
        let ip_key = ip_key(from);
        // An attempt counts as a failure from the moment it starts, before the
        // password is checked, and is forgiven when it succeeds: attempts made
        // at the same time cannot all slip under the limit.
        let account_key = format!("{}\u{0}{ip_key}", names::key(&c.name));
        let limits = &self.limiters;
        limits
            .login_ip
            .try_hit(&ip_key, now)
            .map_err(|s| Error::TooManyRequests { retry_after_s: s })?;
        limits
            .login_account
            .try_hit(&account_key, now)
            .map_err(|s| Error::TooManyRequests { retry_after_s: s })?;
        let user = self.store.user_by_name(&c.name).await?;
        let ok = match &user {
            Some(u) => match &u.password_hash {
                Some(h) => self.hashing.verify(c.password, h.clone()).await,
                None => false,
            },
            None => {
                // Spend the same time as a real check, so timing does not tell
                // which names exist.
                let _ = self.hashing.hash(c.password).await;
                false
            }
        };
        let (Some(user), true) = (user, ok) else {
            return Err(Error::Unauthorized);
        };
        if user.banned {
            return Err(Error::Banned);
        }
        limits.login_account.clear(&account_key);
        self.open_session(user, "cookie").await
    }

    /// Makes a guest identity (casual games only) and logs it in.
    ///
    /// # Errors
    /// Too many guests, or storage.
    pub async fn guest(&self, from: IpAddr) -> Result<SignedIn, Error> {
        count(&self.limiters.guest_ip, &ip_key(from))?;
        count(&self.limiters.guest_all, "")?;
        let id = common::random_id(12)?;
        let name = format!("Guest-{}", common::random_id(8)?);
        let user = self
            .store
            .create_user(&id, &name, None, true, common::now_ms())
            .await?
            .ok_or_else(|| Error::Internal("guest name clash".into()))?;
        self.open_session(user, "cookie").await
    }

    /// Ends the session of `token`.
    ///
    /// # Errors
    /// Storage.
    pub async fn logout(&self, token: &str) -> Result<(), Error> {
        self.store.delete_session(&token_hash(token)).await?;
        Ok(())
    }

    /// Ends every session and bearer token of an account (e.g. after a
    /// password may have leaked).
    ///
    /// # Errors
    /// Storage.
    pub async fn logout_everywhere(&self, user: &User) -> Result<Revoked, Error> {
        let ended = self.store.delete_sessions_of(&user.id, None).await?;
        Ok(Revoked { ended })
    }

    /// Revokes bearer tokens: one (given) or all of the account's. The
    /// browser session stays either way; a revoked token is refused from
    /// the next request on.
    ///
    /// # Errors
    /// Storage.
    pub async fn revoke_tokens(&self, user: &User, token: Option<&str>) -> Result<Revoked, Error> {
        let ended = match token {
            Some(t) => {
                let hash = token_hash(t);
                // Only a token of this account, and only a bearer token.
                match self.store.session_of(&hash).await? {
                    Some((owner, kind)) if owner == user.id && kind == "token" => {
                        self.store.delete_session(&hash).await?;
                        1
                    }
                    _ => 0,
                }
            }
            None => self.store.delete_sessions_of(&user.id, Some("token")).await?,
        };
        Ok(Revoked { ended })
    }

    /// A bearer token for a bot or script.
    ///
    /// # Errors
    /// Storage.
    pub async fn make_token(&self, user: &User) -> Result<String, Error> {
        Ok(self.open_session(user.clone(), "token").await?.token)
    }

    /// Of the sessions `token_hashes`, those still live (see
    /// `store::Store::live_sessions`).
    ///
    /// # Errors
    /// Storage.
    pub async fn live_sessions(
        &self,
        token_hashes: &[String],
    ) -> Result<std::collections::HashSet<String>, Error> {
        Ok(self.store.live_sessions(token_hashes, common::now_ms()).await?)
    }

    /// A new session of `kind` (`cookie` or `token`).
    async fn open_session(&self, user: User, kind: &str) -> Result<SignedIn, Error> {
        let token = new_token()?;
        let now = common::now_ms();
        self.store
            .create_session(
                &token_hash(&token),
                &user.id,
                kind,
                now,
                now + SESSION_DAYS * DAY_MS,
            )
            .await?;
        Ok(SignedIn { user, token })
    }
}
