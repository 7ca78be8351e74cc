//! The rules of competitions (CXA competition rules chapters 3–5, seeds 000
//! and 001; FIDE Handbook C.04 and C.07) as a pure library: no I/O, no
//! async, like the referee. The server and the `qiju tournament` commands
//! are built on it.

pub mod dutch;
pub mod knockout;
pub mod model;
pub mod roundrobin;
pub mod staged;
pub mod team;
pub mod tiebreak;
pub mod trf;
