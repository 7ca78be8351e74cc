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
//!
//! What other players are shown — names, chat lines, reports — must also
//! read as what it is ([`shown`]): no control characters, no bidirectional
//! controls (U+202E turns `gnp.exe` into something else on screen), no
//! invisible characters (zero-width spaces, fillers that are letters to
//! Unicode but blank on screen), and no pile of combining marks drawn over
//! the lines around it. Names refuse joiners too.

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
        && shown(name, Joiners::Refused).is_ok()
}

/// Combining marks one character may carry. Text of every script needs at
/// most 2 or 3 (Vietnamese in decomposed form: a tone and a vowel mark;
/// Devanagari: a vowel sign and a nasal; Hebrew with points); "Zalgo" text
/// piles dozens onto one letter to draw over the lines around it.
pub const MAX_MARKS: usize = 4;

/// Why a text cannot be shown to other players as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unshowable {
    #[error("control characters")]
    Control,
    #[error("a bidirectional control (U+{0:04X}), which reorders the text around it")]
    Bidi(u32),
    #[error("an invisible character (U+{0:04X})")]
    Invisible(u32),
    #[error("more than {MAX_MARKS} combining marks on one character")]
    Marks,
}

/// Whether zero-width joiners (U+200C, U+200D) may stand between two
/// visible characters: in chat, where Persian needs the non-joiner and an
/// emoji family is joined by the joiner; never in a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joiners {
    BetweenCharacters,
    Refused,
}

/// Bidirectional controls: embeddings, overrides, isolates and marks.
fn bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Characters with nothing to see (Unicode's Default_Ignorable_Code_Point,
/// less the variation selectors, which count as combining marks, and the
/// joiners, see [`Joiners`]), and the fillers that are letters to Unicode
/// but blank on screen (Hangul fillers, Braille blank).
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}' | '\u{2060}'..='\u{206F}' | '\u{2800}'
        | '\u{3164}' | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}'
        | '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}'
        | '\u{E0000}'..='\u{E00FF}' | '\u{E01F0}'..='\u{E0FFF}')
}

fn joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// Whether a character changes how text around it is shown without being
/// seen itself: a control (an escape sequence retitles or clears a
/// terminal; a newline forges a line), a bidirectional control, an
/// invisible character or a joiner. What prints stored text for an
/// operator writes these as escapes.
#[must_use]
pub fn hidden(c: char) -> bool {
    c.is_control() || bidi_control(c) || invisible(c) || joiner(c)
}

/// Whether `text` can be shown to other players as it is (see the module
/// doc): no control, bidirectional-control or invisible character, joiners
/// only as `joiners` allows, and at most [`MAX_MARKS`] combining marks
/// (variation selectors included) on one character.
///
/// # Errors
/// The first thing that is wrong.
pub fn shown(text: &str, joiners: Joiners) -> Result<(), Unshowable> {
    let chars: Vec<char> = text.chars().collect();
    let mut marks = 0;
    for (i, &c) in chars.iter().enumerate() {
        if c.is_control() {
            return Err(Unshowable::Control);
        }
        if bidi_control(c) {
            return Err(Unshowable::Bidi(c.into()));
        }
        if invisible(c) {
            return Err(Unshowable::Invisible(c.into()));
        }
        if joiner(c) {
            let visible = |c: Option<&char>| {
                c.is_some_and(|&c| !c.is_whitespace() && !joiner(c) && !invisible(c) && !bidi_control(c))
            };
            let between = i > 0 && visible(chars.get(i - 1)) && visible(chars.get(i + 1));
            if joiners == Joiners::Refused || !between {
                return Err(Unshowable::Invisible(c.into()));
            }
            marks = 0;
            continue;
        }
        if unicode_normalization::char::is_combining_mark(c) {
            marks += 1;
            if marks > MAX_MARKS {
                return Err(Unshowable::Marks);
            }
        } else {
            marks = 0;
        }
    }
    Ok(())
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
    fn what_reorders_or_hides_text_is_not_shown() {
        let chat = Joiners::BetweenCharacters;
        for ok in [
            "有人下一盘吗？",
            "Vie\u{323}\u{302}t Nam",
            "می\u{200C}خواهم",
            "👨\u{200D}👩\u{200D}👧",
            "❤\u{FE0F}",
            "किं",
        ] {
            assert_eq!(shown(ok, chat), Ok(()), "{ok:?}");
        }
        assert_eq!(shown("\u{202E}abc", chat), Err(Unshowable::Bidi(0x202E)));
        assert_eq!(shown("a\u{2067}b", chat), Err(Unshowable::Bidi(0x2067)));
        assert_eq!(shown("a\u{200B}b", chat), Err(Unshowable::Invisible(0x200B)));
        assert_eq!(shown("\u{3164}", chat), Err(Unshowable::Invisible(0x3164)));
        assert_eq!(shown("a\u{E0041}", chat), Err(Unshowable::Invisible(0xE0041)));
        assert_eq!(shown("a\u{1b}[2J", chat), Err(Unshowable::Control));
        // A joiner alone, at an end or beside a space hides nothing it joins.
        assert!(shown("\u{200D}a", chat).is_err());
        assert!(shown("a \u{200C}b", chat).is_err());
        assert!(shown("a\u{200D}\u{200D}b", chat).is_err());
        assert!(shown("a\u{200C}b", Joiners::Refused).is_err());
        let marks = |n| format!("e{}", "\u{301}".repeat(n));
        assert_eq!(shown(&marks(MAX_MARKS), chat), Ok(()));
        assert_eq!(shown(&marks(MAX_MARKS + 1), chat), Err(Unshowable::Marks));
        assert_eq!(
            shown(&format!("❤{}", "\u{FE0F}".repeat(5)), chat),
            Err(Unshowable::Marks)
        );
    }

    #[test]
    fn names_refuse_what_hides_or_piles_up() {
        for n in [
            "ab\u{3164}cd",
            "\u{115F}abc",
            "ab\u{200D}cd",
            "a\u{345}\u{345}\u{345}\u{345}\u{345}",
        ] {
            assert!(!valid(n), "{n:?}");
        }
        assert!(valid("विजय"));
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
