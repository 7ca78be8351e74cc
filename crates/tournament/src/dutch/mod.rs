//! The FIDE Dutch system (C.04.3, 2025 rules in force from 2026).

pub mod blossom;
pub mod wide;
