//! Bot accounts (issue 32, lichess's Bot API): an account is upgraded once
//! and for good, as lichess's `POST /api/bot/account/upgrade` does; the
//! server then serves it lichess's form of the paths both APIs share.

use crate::Accounts;
use common::Error;
use store::User;

/// How many bots `GET /api/bot/online` lists at most.
pub const BOTS_LISTED: i64 = 200;

impl Accounts {
    /// Makes `user` a bot account. Upgrading a bot again changes nothing.
    ///
    /// # Errors
    /// `guest` for a guest (a bot is a registered account), or storage.
    pub async fn upgrade_to_bot(&self, user: &User) -> Result<(), Error> {
        if user.guest {
            return Err(Error::bad(
                "guest",
                "a guest cannot become a bot: register an account first",
            ));
        }
        if user.bot {
            return Ok(());
        }
        if self.store.set_bot(&user.id).await? {
            Ok(())
        } else {
            Err(Error::NotFound(format!("account {}", user.name)))
        }
    }

    /// The bot accounts, newest first (at most `limit`, capped at
    /// [`BOTS_LISTED`]), banned ones left out.
    ///
    /// # Errors
    /// Storage.
    pub async fn bots(&self, limit: i64) -> Result<Vec<User>, Error> {
        let mut bots = self.store.bots(limit.clamp(1, BOTS_LISTED)).await?;
        bots.retain(|u| !u.banned);
        Ok(bots)
    }
}
