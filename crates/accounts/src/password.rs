//! Password hashes (argon2id, the crate's default parameters), computed in a
//! memory buffer each hashing thread keeps: argon2id needs about 19 MiB per
//! hash, and a fresh buffer for every hash left the allocator holding
//! hundreds of MiB after a burst of registrations. With [`crate::HashPool`]'s
//! few threads, the memory all hashing can take is a few buffers, however
//! many requests come. The strings are standard PHC strings
//! (`$argon2id$v=19$m=19456,t=2,p=1$…`), interchangeable with the argon2
//! crate's own `hash_password` and `verify_password`.

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use std::cell::RefCell;

/// Largest buffer a stored hash may ask for (64 MiB): a damaged row must
/// not make a login allocate without bound.
const MAX_BLOCKS: usize = 64 * 1024;

thread_local! {
    static BLOCKS: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// Runs argon2 with this thread's buffer.
fn hash_into(argon: &Argon2<'_>, password: &[u8], salt: &[u8], out: &mut [u8]) -> Result<(), String> {
    let n = argon.params().block_count();
    if n > MAX_BLOCKS {
        return Err(format!("argon2 parameters ask for {n} KiB"));
    }
    BLOCKS.with(|b| {
        let mut blocks = b.borrow_mut();
        if blocks.len() < n {
            blocks.resize(n, Block::default());
        }
        argon
            .hash_password_into_with_memory(password, salt, out, &mut blocks[..n])
            .map_err(|e| e.to_string())
    })
}

/// The PHC string of `password` with `salt`.
///
/// # Errors
/// Only if the argon2 library refuses its own defaults.
pub fn hash(password: &str, salt: &[u8; 16]) -> Result<String, String> {
    let argon = Argon2::default();
    let salt = SaltString::encode_b64(salt).map_err(|e| e.to_string())?;
    let mut raw_salt = [0u8; 64];
    let raw = salt.decode_b64(&mut raw_salt).map_err(|e| e.to_string())?;
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    hash_into(&argon, password.as_bytes(), raw, &mut out)?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(argon.params()).map_err(|e| e.to_string())?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).map_err(|e| e.to_string())?),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches the PHC string `stored` (compared in
/// constant time).
#[must_use]
pub fn verify(password: &str, stored: &str) -> bool {
    let check = || -> Result<bool, String> {
        let phc = PasswordHash::new(stored).map_err(|e| e.to_string())?;
        let algorithm = Algorithm::try_from(phc.algorithm).map_err(|e| e.to_string())?;
        let version = phc
            .version
            .map(Version::try_from)
            .transpose()
            .map_err(|e| e.to_string())?
            .unwrap_or_default();
        let params = Params::try_from(&phc).map_err(|e| e.to_string())?;
        let (Some(salt), Some(expected)) = (phc.salt, phc.hash) else {
            return Ok(false);
        };
        let mut raw_salt = [0u8; 64];
        let raw = salt.decode_b64(&mut raw_salt).map_err(|e| e.to_string())?;
        let argon = Argon2::new(algorithm, version, params);
        let mut out = vec![0u8; expected.len()];
        hash_into(&argon, password.as_bytes(), raw, &mut out)?;
        // `Output`'s equality is constant-time.
        Ok(Output::new(&out).map_err(|e| e.to_string())? == expected)
    };
    check().unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::password_hash::{PasswordHasher, PasswordVerifier};

    #[test]
    fn hashes_verify_both_ways_with_the_argon2_crates_own() {
        let ours = hash("correct horse", &[7; 16]).unwrap();
        assert!(ours.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{ours}");
        assert!(verify("correct horse", &ours));
        assert!(!verify("correct horsE", &ours));
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(Argon2::default()
            .verify_password(b"correct horse", &parsed)
            .is_ok());
        // A hash the crate made (as the server stored them before) verifies.
        let salt = SaltString::encode_b64(&[9; 16]).unwrap();
        let theirs = Argon2::default()
            .hash_password(b"long enough", &salt)
            .unwrap()
            .to_string();
        assert!(verify("long enough", &theirs));
        assert!(!verify("long enougH", &theirs));
        // The same salt and password give the same string as the crate's.
        let same = hash("long enough", &[9; 16]).unwrap();
        assert_eq!(same, theirs);
        for bad in [
            "",
            "$argon2id$",
            "not a hash",
            "$argon2id$v=19$m=99999999,t=2,p=1$c2FsdHNhbHQ$aGFzaA",
        ] {
            assert!(!verify("x", bad), "{bad}");
        }
    }
}
