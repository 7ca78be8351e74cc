//! The REST API's handlers, one module per room they call: each parses the
//! request, calls the room, and answers with its view or its error.

pub mod accounts;
pub mod analysis;
pub mod bot;
pub mod events;
pub mod games;
pub mod lobby;
pub mod players;
