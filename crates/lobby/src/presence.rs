//! Who is in the lobby: each lobby connection (socket or event stream) of a
//! player holds a [`Presence`]; when the last one goes, so do their seeks.

use crate::{lock, Lobby};
use store::User;

/// Held by each lobby connection of a player; when the last one is
/// dropped, the player's seeks go (see `Lobby::left`). Drop it after the
/// connection's receiver.
#[derive(Debug)]
pub struct Presence {
    lobby: Lobby,
    user_id: String,
}

impl Presence {
    #[must_use]
    pub fn new(lobby: &Lobby, user: &User) -> Presence {
        let first = {
            let mut present = lock(&lobby.0.present);
            let e = present
                .entry(user.id.clone())
                .or_insert_with(|| (user.name.clone(), 0));
            e.1 += 1;
            e.1 == 1
        };
        if first {
            lobby.share_came(&user.id, &user.name);
        }
        Presence {
            lobby: lobby.clone(),
            user_id: user.id.clone(),
        }
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        let last = {
            let mut present = lock(&self.lobby.0.present);
            match present.get_mut(&self.user_id) {
                Some(entry) => {
                    entry.1 -= 1;
                    let gone = entry.1 == 0;
                    if gone {
                        present.remove(&self.user_id);
                    }
                    gone
                }
                None => false,
            }
        };
        if last {
            self.lobby.share_went(&self.user_id);
        }
        self.lobby.left(&self.user_id);
    }
}
