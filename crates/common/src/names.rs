//! Account names: which are allowed and when two are the same.
//!
//! Two names are the same account when their NFKC_Casefold forms (Unicode
//! D146: `NFKC(casefold(NFKD(casefold(NFD(x)))))`) are equal. Lower-casing
//! alone let `ＫＥＬＶＩＮ` (full-width) or `Kelvin` spelled with the Kelvin
//! sign U+212A stand beside the ASCII account as a different name, or reach
//! it by accident of the lower-casing tables; with the one key below, every
//! look-alike that Unicode calls compatibility-equal is the same name —
//! registering it is "name taken", and it can never become a second account
//! that passes for the first.
//!
//! Names are letters and digits of any script (so 王天一 and Ōyama are
//! names), `_` and `-`, 2–20 characters after NFKC.

use unicode_normalization::UnicodeNormalization;

/// The comparison key of a name (stored as `users.name_key`).
#[must_use]
pub fn key(name: &str) -> String {
    let nfd: String = name.nfd().collect();
    let folded = caseless::default_case_fold_str(&nfd);
    let nfkd: String = folded.nfkd().collect();
    caseless::default_case_fold_str(&nfkd).nfkc().collect()
}

/// What a name looks like (stored as `users.name_skeleton`): the key of
/// its UTS 39 confusable skeleton. Two names with one skeleton read alike
/// on screen — Latin `a` and Cyrillic `а`, `l` and `1`, `rn` and `m` — so
/// a name whose skeleton an account already has is refused: nobody can
/// pass for another player with a look-alike.
#[must_use]
pub fn skeleton(name: &str) -> String {
    // The skeleton first, where case still tells `I` (like `l`) from `i`;
    // then the key, so that case and `0`/`O`/`o` fold together.
    key(&unicode_security::skeleton(name).collect::<String>())
}

/// The name as stored and shown: its NFKC form, so a name typed with
/// full-width letters is kept as the letters it means.
#[must_use]
pub fn display(name: &str) -> String {
    name.trim().nfkc().collect()
}

/// Whether a (display) name may be registered.
#[must_use]
pub fn valid(name: &str) -> bool {
    (2..=20).contains(&name.chars().count())
        && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// Names that would pass for the platform or its players of another kind:
/// guests (`Guest-…` is how guests are named), the computer, the staff.
/// Compared by key, so `ＡＤＭＩＮ` is reserved too.
const RESERVED_PREFIXES: &[&str] = &[
    "guest",
    "qiju",
    "棋局",
    "admin",
    "moderator",
    "arbiter",
    "裁判",
    "管理员",
];
const RESERVED: &[&str] = &[
    "computer",
    "电脑",
    "system",
    "anonymous",
    "null",
    "undefined",
    "stockfish",
];

/// Whether a name is kept for the platform: compared by key and by
/// skeleton, so `аdmin` with a Cyrillic `а` is kept too.
#[must_use]
pub fn reserved(name: &str) -> bool {
    let (k, sk) = (key(name), skeleton(name));
    RESERVED_PREFIXES
        .iter()
        .any(|p| k.starts_with(p) || sk.starts_with(&skeleton(p)))
        || RESERVED.iter().any(|r| k == *r || sk == skeleton(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes_share_a_key() {
        let ascii = key("Kelvin");
        assert_eq!(key("\u{212A}elvin"), ascii, "Kelvin sign");
        assert_eq!(key("ＫＥＬＶＩＮ"), ascii, "full-width");
        assert_eq!(key("KELVIN"), ascii);
        assert_eq!(
            key("Straße"),
            key("STRASSE"),
            "full case folding, not lower-casing"
        );
        assert_eq!(key("ﬁsh"), key("fish"), "ligature");
        assert_ne!(key("kelvin"), key("kelvim"));
        assert_eq!(key("王天一"), "王天一");
    }

    #[test]
    fn names_that_read_alike_share_a_skeleton() {
        let latin = skeleton("paypal");
        assert_eq!(skeleton("раураl"), latin, "Cyrillic р, а, у");
        assert_eq!(skeleton("PayPaI"), latin, "capital I for l");
        assert_eq!(skeleton("modern"), skeleton("modem"), "rn for m");
        assert_eq!(skeleton("l0ve"), skeleton("love"), "zero for o");
        assert_ne!(skeleton("paypal"), skeleton("paypad"));
        assert_ne!(skeleton("王天一"), skeleton("王天二"));
        assert_eq!(skeleton("ｐａｙｐａｌ"), latin, "full-width letters");
    }

    #[test]
    fn names_of_any_script() {
        assert!(valid("王天一"));
        assert!(valid(&display("Ōyama")));
        assert!(valid("a_b-9"));
        assert!(!valid("a"));
        assert!(!valid("two words"));
        assert!(!valid("<script>"));
        assert!(!valid(&"x".repeat(21)));
        assert_eq!(display("ＫＥＬＶＩＮ"), "KELVIN");
    }

    #[test]
    fn platform_names_are_reserved() {
        // "guest…" as before: guests are named Guest-….
        for n in [
            "Guest-x1",
            "guesthouse",
            "ＡＤＭＩＮ",
            "admin2",
            "Computer",
            "电脑",
            "裁判长",
            "qiju_team",
            "NULL",
            "\u{430}dmin", // Cyrillic а
            "c0mputer",
        ] {
            assert!(reserved(n), "{n}");
        }
        for n in ["王天一", "kelvin", "computers4", "nullify"] {
            assert!(!reserved(n), "{n}");
        }
    }
}
