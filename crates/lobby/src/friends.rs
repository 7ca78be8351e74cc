//! Friends (issue 30): following players, the list of those followed with
//! who is on the site and what they are playing, and the notices that
//! reach a player elsewhere on the site. Follows are stored
//! (`store::follows`); who is online is this node's presence, so the list
//! is the lobby's to make.

use crate::protocol::{FriendGame, FriendView, LobbyMsg, NoticeKind};
use crate::Lobby;
use common::Error;
use store::{Followed, User};

/// The longest name an account may have, and so the longest worth looking
/// up.
const MAX_NAME_LEN: usize = 64;

impl Lobby {
    /// `user` follows the player called `name`.
    ///
    /// # Errors
    /// A guest (a list for an account that vanishes), oneself, no such
    /// player, the cap on follows, too many changes a minute, or storage.
    pub async fn follow(&self, user: &User, name: &str) -> Result<(), Error> {
        let other = self.followable(user, name).await?;
        let cap = self.0.limits.follows_per_user;
        match self
            .0
            .store
            .follow(&user.id, &other.id, cap, common::now_ms())
            .await?
        {
            Followed::Now | Followed::Already => Ok(()),
            Followed::Full => Err(Error::conflict(
                "too_many_follows",
                format!("you follow {cap} players, the most one may; unfollow someone first"),
            )),
        }
    }

    /// `user` stops following the player called `name`.
    ///
    /// # Errors
    /// No such player or not followed (`not_found`), too many changes a
    /// minute, or storage.
    pub async fn unfollow(&self, user: &User, name: &str) -> Result<(), Error> {
        let other = self.followable(user, name).await?;
        if self.0.store.unfollow(&user.id, &other.id).await? {
            Ok(())
        } else {
            Err(Error::NotFound(format!("{} among those you follow", other.name)))
        }
    }

    /// The checks follow and unfollow share: who asks, how often, and
    /// whether `name` is someone to follow.
    async fn followable(&self, user: &User, name: &str) -> Result<User, Error> {
        if user.guest {
            return Err(Error::Forbidden(
                "guests have no friends list; register to follow players".into(),
            ));
        }
        let name = name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME_LEN {
            return Err(Error::bad(
                "bad_name",
                format!("a player's name has 1 to {MAX_NAME_LEN} characters"),
            ));
        }
        self.0
            .follow_limiter
            .try_hit(&user.id, common::now_ms())
            .map_err(|s| Error::TooManyRequests { retry_after_s: s })?;
        let other = self
            .0
            .store
            .user_by_name(name)
            .await?
            .ok_or_else(|| Error::NotFound(format!("player {name}")))?;
        if other.id == user.id {
            return Err(Error::bad("self_follow", "you cannot follow yourself"));
        }
        Ok(other)
    }

    /// Whom `user` follows, in name order: online or not, and their newest
    /// live game.
    ///
    /// # Errors
    /// Storage.
    pub async fn friends(&self, user: &User) -> Result<Vec<FriendView>, Error> {
        let followed = self.0.store.following(&user.id).await?;
        if followed.is_empty() {
            return Ok(Vec::new());
        }
        let games = self.0.store.live_games_of_followed(&user.id).await?;
        let present = self.everyone();
        Ok(followed
            .into_iter()
            .map(|(id, name)| {
                let playing = games.iter().find_map(|g| {
                    let opponent = if g.first_id.as_deref() == Some(id.as_str()) {
                        &g.second_name
                    } else if g.second_id.as_deref() == Some(id.as_str()) {
                        &g.first_name
                    } else {
                        return None;
                    };
                    Some(FriendGame {
                        id: g.id.clone(),
                        variant: g.variant.clone(),
                        time_control: g.time_control.clone(),
                        opponent: opponent.clone(),
                    })
                });
                FriendView {
                    online: present.contains_key(&id),
                    name,
                    playing,
                }
            })
            .collect())
    }

    /// Tells a player, wherever they are on the site, that `from` did
    /// something in `game` (see [`NoticeKind`]). The seam for the rooms
    /// that need it: correspondence games call this for a move.
    pub fn notice(&self, user_id: &str, kind: NoticeKind, from: &str, game: Option<&str>) {
        self.notify(
            user_id,
            &LobbyMsg::Notice {
                kind,
                from: from.to_string(),
                game: game.map(str::to_string),
            },
        );
    }
}
