//! Randomness from the operating system: ids, tokens, coin flips.

use crate::Error;

/// Fills `buf` from the operating system's random source.
///
/// # Errors
/// The system has no randomness to give (`internal`).
pub fn random_bytes(buf: &mut [u8]) -> Result<(), Error> {
    getrandom::fill(buf).map_err(|e| Error::Internal(format!("no randomness: {e}")))
}

/// A random id of `len` characters from `[0-9a-zA-Z]`.
///
/// # Errors
/// As [`random_bytes`].
pub fn random_id(len: usize) -> Result<String, Error> {
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
///
/// # Errors
/// As [`random_bytes`].
pub fn random_u32() -> Result<u32, Error> {
    let mut bytes = [0u8; 4];
    random_bytes(&mut bytes)?;
    Ok(u32::from_le_bytes(bytes))
}

/// A coin flip (who gets the first side when neither asked).
///
/// # Errors
/// As [`random_bytes`].
pub fn random_bit() -> Result<bool, Error> {
    let mut b = [0u8; 1];
    random_bytes(&mut b)?;
    Ok(b[0] & 1 == 1)
}
