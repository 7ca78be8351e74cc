//! Chat: the lobby's one room, and the moderation of every line said on
//! the platform — a game's rooms included. A line must come from a player
//! logged in, hold 1 to 200 characters that read as what they are (no
//! control, bidirectional-control or invisible characters, at most 4
//! combining marks on a character: `common::names::shown`), and come no
//! more often than 5 in 10 s (all rooms together); the account is read
//! afresh for each line, so an operator's mute or ban (`qiju admin`) holds
//! from the next line on. Players report lines to the operators; a report
//! is checked the same way, so that what `qiju admin reports` prints on the
//! operator's terminal is text and never an escape sequence.

use crate::protocol::{LobbyLine, LobbyMsg};
use crate::{lock, Lobby, CHAT_HISTORY};
use common::names::{self, Joiners};
use common::Error;
use serde::{Deserialize, Serialize};
use store::User;
use utoipa::ToSchema;

/// Longest chat line, in characters.
pub const CHAT_MAX_CHARS: usize = 200;

/// Why a chat line was not passed on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChatRefusal {
    #[error("log in to chat")]
    NotLoggedIn,
    #[error("a chat line has 1-{CHAT_MAX_CHARS} characters and no control characters")]
    BadLine,
    #[error("a chat line may not hold {0}")]
    Unshowable(common::names::Unshowable),
    #[error("too many lines; wait {wait_s} s")]
    TooFast { wait_s: u64 },
    #[error("this account may no longer chat")]
    Barred,
    #[error("chat is unavailable; try again")]
    Unavailable,
}

impl ChatRefusal {
    /// The stable code a client words it by.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            ChatRefusal::NotLoggedIn => "unauthorized",
            ChatRefusal::BadLine | ChatRefusal::Unshowable(_) => "bad_chat",
            ChatRefusal::TooFast { .. } => "rate_limited",
            ChatRefusal::Barred => "banned",
            ChatRefusal::Unavailable => "unavailable",
        }
    }
}

/// A chat line reported to the operators.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    /// Who said it.
    pub name: String,
    /// What they said (as shown; at most 200 characters).
    pub text: String,
    /// `lobby`, or the id of the game it was said in.
    pub context: String,
    /// Why it is reported; a client that does not ask says `other`.
    #[serde(default)]
    pub reason: ReportReason,
}

/// Why a chat line is reported: what the operator looks for first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReportReason {
    /// Insults, threats, harassment.
    Abuse,
    /// Advertising, flooding.
    Spam,
    /// Says or shows help from an engine or another person.
    Cheating,
    #[default]
    Other,
}

impl ReportReason {
    /// The word stored and printed by `qiju admin reports`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ReportReason::Abuse => "abuse",
            ReportReason::Spam => "spam",
            ReportReason::Cheating => "cheating",
            ReportReason::Other => "other",
        }
    }
}

/// Reports held per reporter in an hour.
pub const REPORTS_PER_HOUR: i64 = 10;

impl Lobby {
    /// Checks a chat line, a game's or the lobby's (see the module doc):
    /// the speaker's account as it is now, and the line trimmed.
    ///
    /// # Errors
    /// Why the line is not passed on.
    pub async fn check_line<'a>(
        &self,
        user: Option<&User>,
        text: &'a str,
    ) -> Result<(User, &'a str), ChatRefusal> {
        let Some(user) = user else {
            return Err(ChatRefusal::NotLoggedIn);
        };
        let text = text.trim();
        if text.is_empty() || text.chars().count() > CHAT_MAX_CHARS || text.chars().any(char::is_control) {
            return Err(ChatRefusal::BadLine);
        }
        names::shown(text, Joiners::BetweenCharacters).map_err(ChatRefusal::Unshowable)?;
        if let Err(wait_s) = self.0.chat_limiter.try_hit(&user.id, common::now_ms()) {
            return Err(ChatRefusal::TooFast { wait_s });
        }
        // One read a line at most, as lines are rate-limited above.
        match self.0.store.user_by_id(&user.id).await {
            Ok(Some(u)) if !u.banned => Ok((u, text)),
            Ok(_) => Err(ChatRefusal::Barred),
            Err(e) => {
                tracing::warn!(error = %e, "chat: cannot read the account");
                Err(ChatRefusal::Unavailable)
            }
        }
    }

    /// Says a checked line in the lobby chat to everyone there, on every
    /// node, and keeps it for newcomers (each node keeps the lines it
    /// heard, so a newcomer on any node reads the same history).
    pub fn say(&self, from: &str, text: &str) {
        let line = LobbyLine::now(from, text);
        self.share_said(&line);
        self.keep_and_show(line);
    }

    /// A lobby chat line said here or on another node: kept for
    /// newcomers and shown to this node's lobby.
    pub(crate) fn keep_and_show(&self, line: LobbyLine) {
        {
            let mut chat = lock(&self.0.chat);
            chat.push_back(line.clone());
            while chat.len() > CHAT_HISTORY {
                chat.pop_front();
            }
        }
        let _ = self
            .0
            .public
            .send(std::sync::Arc::from(LobbyMsg::Chat(line).to_json()));
    }

    /// The lobby chat's last lines, oldest first.
    #[must_use]
    pub fn chat_history(&self) -> Vec<LobbyLine> {
        lock(&self.0.chat).iter().cloned().collect()
    }

    /// Files `user`'s report of a chat line; the operators read reports
    /// with `qiju admin reports` and mute (`qiju admin mute`) or ban
    /// (`qiju admin ban`).
    ///
    /// # Errors
    /// A report out of shape, of oneself or of nobody, more than
    /// [`REPORTS_PER_HOUR`], or storage.
    pub async fn report(&self, user: &User, r: ReportRequest) -> Result<(), Error> {
        if r.text.chars().count() > 200 || r.context.chars().count() > 64 || r.text.trim().is_empty() {
            return Err(Error::bad(
                "bad_report",
                "a report holds the line (1-200 characters) and where it was said",
            ));
        }
        // As a chat line is checked: the line quoted passed that check, and
        // the operator's terminal shows what is stored.
        for (what, text) in [("line", &r.text), ("place", &r.context)] {
            if let Err(e) = names::shown(text, Joiners::BetweenCharacters) {
                return Err(Error::bad(
                    "bad_report",
                    format!("a report's {what} may not hold {e}"),
                ));
            }
        }
        let store = &self.0.store;
        let reported = store
            .user_by_name(&r.name)
            .await?
            .ok_or_else(|| Error::NotFound(format!("player {}", r.name)))?;
        if reported.id == user.id {
            return Err(Error::bad("bad_report", "you cannot report yourself"));
        }
        let now = common::now_ms();
        if store.reports_filed_since(&user.id, now - 3_600_000).await? >= REPORTS_PER_HOUR {
            return Err(Error::TooManyRequests { retry_after_s: 3600 });
        }
        let id = common::random_id(16)?;
        store
            .add_report(&store::NewReport {
                id: &id,
                reporter_id: &user.id,
                reported_id: &reported.id,
                context: r.context.trim(),
                reason: r.reason.as_str(),
                text: r.text.trim(),
                now_ms: now,
            })
            .await?;
        tracing::info!(reporter = %user.name, reported = %reported.name, context = %r.context, reason = r.reason.as_str(), "chat line reported");
        Ok(())
    }
}
