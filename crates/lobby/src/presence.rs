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
        let mut present = lock(&lobby.0.present);
        present
            .entry(user.id.clone())
            .or_insert_with(|| (user.name.clone(), 0))
            .1 += 1;
        Presence {
            lobby: lobby.clone(),
            user_id: user.id.clone(),
        }
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        {
            let mut present = lock(&self.lobby.0.present);
            if let Some(entry) = present.get_mut(&self.user_id) {
                entry.1 -= 1;
                if entry.1 == 0 {
                    present.remove(&self.user_id);
                }
            }
        }
        self.lobby.left(&self.user_id);
    }
}
