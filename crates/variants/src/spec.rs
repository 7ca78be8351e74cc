//! The TOML format of a variant (docs/variants.md) and its loader.
//!
//! The file is read with serde into the `*Spec` types below, which keep the
//! byte span of every table, so that a file that parses but makes no sense
//! ("unknown region `palce`") is refused with the line to look at, as a
//! syntax error is.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::error::VariantError;
use crate::square::{Square, STRIDE};
use crate::variant::{
    Counting, DoubleMove, EndValue, FlagRing, Kind, Mode, Movement, PieceType, Repetition, Revival, Royals,
    SquareSet, TypeSet, Variant, Who,
};

/// The largest board side; squares are bytes of a 16-wide board.
const MAX_SIDE: u8 = STRIDE;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantSpec {
    name: Spanned<String>,
    #[serde(default)]
    description: String,
    board: BoardSpec,
    #[serde(default)]
    regions: BTreeMap<String, Spanned<RegionSpec>>,
    pieces: Vec<Spanned<PieceSpec>>,
    start: Spanned<String>,
    #[serde(default)]
    rules: RulesSpec,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardSpec {
    files: Spanned<u8>,
    ranks: Spanned<u8>,
}

/// A region as the first side sees it; the second side's is mirrored
/// rank-wise (its palace is at the far edge).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegionSpec {
    /// `"d-f"` or `"e"`; all files if absent.
    files: Option<String>,
    /// `"0-2"` or `"4"`; all ranks if absent.
    ranks: Option<String>,
    /// Further single squares (`"e1"`).
    #[serde(default)]
    squares: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceSpec {
    name: String,
    /// Absent for a promoted form, which is written `+` and its base's letter.
    letter: Option<char>,
    #[serde(default)]
    royal: bool,
    /// The piece type this one becomes after its first capture (升级象棋).
    promotes_to: Option<String>,
    /// What the computer player counts it worth, where the file says
    /// (a soldier is 100); otherwise derived from its mobility.
    value: Option<Spanned<u32>>,
    /// The character the board shows: one for both sides, or each side's
    /// (`{ red = "兵", black = "卒" }`).
    glyph: Option<GlyphSpec>,
    moves: Vec<Spanned<MoveSpec>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum GlyphSpec {
    Both(String),
    Sided(SidedGlyph),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SidedGlyph {
    red: String,
    black: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveSpec {
    kind: KindSpec,
    dirs: Vec<DirSpec>,
    #[serde(default)]
    symmetry: SymmetrySpec,
    #[serde(default)]
    mode: ModeSpec,
    #[serde(default)]
    lame: bool,
    /// Lame leaps: `path` (default: straight first, then diagonally) or
    /// `diagonal` (the one point diagonally towards the destination).
    #[serde(default)]
    leg: LegSpec,
    range: Option<u8>,
    from: Option<String>,
    to: Option<String>,
    /// Hops: names of piece types that cannot be the screen.
    #[serde(default)]
    not_over: Vec<String>,
    /// Names of piece types this movement cannot capture.
    #[serde(default)]
    not_capture: Vec<String>,
    /// Lame leaps: whose pieces block the path (悍马: only the enemy's).
    #[serde(default)]
    blocked_by: WhoSpec,
    /// Hops: whose piece may be the screen (铁炮, 飞车: only their own).
    #[serde(default)]
    screen: WhoSpec,
    /// A conditional power: the movement holds only while the mover's
    /// side has no piece of these types (龙战士: "当己方双炮皆无时").
    #[serde(default)]
    while_lacking: Vec<String>,
    /// The house rule (降和偏方) this movement belongs to: it exists only
    /// where `[rules] house_rules` switches that rule on; a list: all of
    /// them (宫策略's 象不堵 for a 破河象).
    house_rule: Option<Tags>,
    /// A conditional power: the movement holds only while the mover's
    /// royal piece stands in this region (宫策略).
    while_royal_on: Option<String>,
}

#[derive(Deserialize, Clone, Copy, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum WhoSpec {
    #[default]
    Any,
    Own,
    Enemy,
}

impl From<WhoSpec> for Who {
    fn from(w: WhoSpec) -> Who {
        match w {
            WhoSpec::Any => Who::Any,
            WhoSpec::Own => Who::Own,
            WhoSpec::Enemy => Who::Enemy,
        }
    }
}

/// One house rule's name, or several that must all be on.
#[derive(Deserialize)]
#[serde(untagged)]
enum Tags {
    One(String),
    All(Vec<String>),
}

impl Tags {
    fn names(&self) -> &[String] {
        match self {
            Tags::One(n) => std::slice::from_ref(n),
            Tags::All(v) => v,
        }
    }
}

#[derive(Deserialize, Clone, Copy, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum LegSpec {
    #[default]
    Path,
    Diagonal,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum KindSpec {
    Step,
    Leap,
    Slide,
    Hop,
}

#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "snake_case")]
enum SymmetrySpec {
    #[default]
    None,
    LeftRight,
    All,
}

#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "snake_case")]
enum ModeSpec {
    #[default]
    Both,
    Move,
    Capture,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum DirSpec {
    Named(String),
    Offset([i8; 2]),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesSpec {
    #[serde(default)]
    flying_general: bool,
    #[serde(default = "loss")]
    checkmate: EndSpec,
    #[serde(default = "loss")]
    stalemate: EndSpec,
    #[serde(default)]
    pass: bool,
    #[serde(default)]
    bikjang: bool,
    counting: Option<Spanned<CountingSpec>>,
    /// The house rules switched on (each names the `house_rule` of some
    /// movements).
    #[serde(default)]
    house_rules: Vec<String>,
    /// House rules that may not be switched on together (龙战士 and 王者士).
    #[serde(default)]
    exclusive_house_rules: Vec<Vec<String>>,
    /// Revivals from a reserve: drops (还魂卒).
    #[serde(default)]
    revivals: Vec<Spanned<RevivalSpec>>,
    /// Turns of two moves (杀惊遁马).
    #[serde(default)]
    double_moves: Vec<Spanned<DoubleMoveSpec>>,
    /// Hoppers that may use their own royal as the screen (宫廷炮).
    #[serde(default)]
    royal_screens: Vec<Spanned<RoyalScreenSpec>>,
    /// Flags on a ring round the board (解将旗).
    #[serde(default)]
    flags: Vec<Spanned<FlagSpec>>,
    /// The repetition rule, where not the simple rule set's.
    #[serde(default)]
    repetition: Vec<Spanned<RepetitionSpec>>,
    /// How many royal pieces a side has and when they are in check.
    royals: Option<Spanned<RoyalsSpec>>,
}

/// `[rules] royals`: `one` (the default), `any` or `all` (see [`Royals`]).
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum RoyalsSpec {
    One,
    Any,
    All,
}

/// `[[rules.repetition]]`: the `count`-th time on the board ends the game,
/// perpetual check then worth `perpetual_check` to the checking side.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RepetitionSpec {
    #[serde(default = "three")]
    count: u8,
    #[serde(default = "loss")]
    perpetual_check: EndSpec,
    house_rule: Option<String>,
}

fn three() -> u8 {
    3
}

/// `[[rules.flags]]`: a ring of `points` points, each side's flag starting
/// at `start` (first side first).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FlagSpec {
    points: u8,
    start: [u8; 2],
    house_rule: Option<String>,
}

/// `[[rules.royal_screens]]`: hoppers of `pieces` may strike the other
/// royal over their own royal, the royals facing each other; that check
/// is not answered by moving the royal.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RoyalScreenSpec {
    pieces: Vec<String>,
    house_rule: Option<String>,
}

/// `[[rules.revivals]]`: captured pieces of `pieces` go back to their
/// owner's reserve, to be put on an empty point of region `to`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RevivalSpec {
    pieces: Vec<String>,
    to: String,
    #[serde(default)]
    after_capture: bool,
    house_rule: Option<String>,
}

/// `[[rules.double_moves]]`: after `after`, the other side's turn is two
/// moves, the first by a piece of `first`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DoubleMoveSpec {
    after: TriggerSpec,
    first: Vec<String>,
    house_rule: Option<String>,
}

/// The move that earns the other side a turn of two moves.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TriggerSpec {
    mover: String,
    captures: Vec<String>,
    #[serde(default)]
    first_move: bool,
}

impl Default for RulesSpec {
    fn default() -> Self {
        RulesSpec {
            flying_general: false,
            checkmate: EndSpec::Loss,
            stalemate: EndSpec::Loss,
            pass: false,
            bikjang: false,
            counting: None,
            house_rules: Vec::new(),
            exclusive_house_rules: Vec::new(),
            revivals: Vec::new(),
            double_moves: Vec::new(),
            royal_screens: Vec::new(),
            flags: Vec::new(),
            repetition: Vec::new(),
            royals: None,
        }
    }
}

/// `[rules.counting]`: points per piece name, and the second side's bonus.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CountingSpec {
    values: BTreeMap<String, f64>,
    #[serde(default)]
    second_bonus: f64,
}

fn loss() -> EndSpec {
    EndSpec::Loss
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum EndSpec {
    Loss,
    Draw,
    Win,
}

impl From<EndSpec> for EndValue {
    fn from(e: EndSpec) -> EndValue {
        match e {
            EndSpec::Loss => EndValue::Loss,
            EndSpec::Draw => EndValue::Draw,
            EndSpec::Win => EndValue::Win,
        }
    }
}

/// 1-based line and column of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

/// Builds `Invalid` errors pointing at a span of the file.
struct Ctx<'a> {
    text: &'a str,
}

impl Ctx<'_> {
    fn err(&self, span: std::ops::Range<usize>, reason: impl Into<String>) -> VariantError {
        VariantError::Invalid {
            line: line_col(self.text, span.start).0,
            reason: reason.into(),
        }
    }
}

/// Reads `"d-f"` / `"e"` (files) or `"0-2"` / `"4"` (ranks) into an inclusive range.
fn parse_range(s: &str, files: bool, limit: u8) -> Option<(u8, u8)> {
    let one = |t: &str| -> Option<u8> {
        let t = t.trim();
        let v = if files {
            let mut c = t.chars();
            let ch = c.next()?;
            if c.next().is_some() || !ch.is_ascii_lowercase() {
                return None;
            }
            ch as u8 - b'a'
        } else {
            t.parse().ok()?
        };
        (v < limit).then_some(v)
    };
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (one(a)?, one(b)?),
        None => {
            let v = one(s)?;
            (v, v)
        }
    };
    (a <= b).then_some((a, b))
}

/// Offsets named in the file, as the first side sees them (+rank = forward).
fn named_dirs(name: &str) -> Option<&'static [(i8, i8)]> {
    Some(match name {
        "orthogonal" => &[(0, 1), (0, -1), (1, 0), (-1, 0)],
        "diagonal" => &[(1, 1), (1, -1), (-1, 1), (-1, -1)],
        "forward" => &[(0, 1)],
        "backward" => &[(0, -1)],
        "sideways" => &[(1, 0), (-1, 0)],
        "forward_diagonal" => &[(1, 1), (-1, 1)],
        "backward_diagonal" => &[(1, -1), (-1, -1)],
        _ => return None,
    })
}

fn expand(d: (i8, i8), symmetry: SymmetrySpec, out: &mut Vec<(i8, i8)>) {
    let (x, y) = d;
    let all: Vec<(i8, i8)> = match symmetry {
        SymmetrySpec::None => vec![d],
        SymmetrySpec::LeftRight => vec![(x, y), (-x, y)],
        SymmetrySpec::All => vec![
            (x, y),
            (-x, y),
            (x, -y),
            (-x, -y),
            (y, x),
            (-y, x),
            (y, -x),
            (-y, -x),
        ],
    };
    for o in all {
        if !out.contains(&o) {
            out.push(o);
        }
    }
}

impl Variant {
    /// Reads a variant from its TOML text (docs/variants.md). Errors name the
    /// line and what is wrong with it.
    pub fn from_toml(text: &str) -> Result<Variant, VariantError> {
        Variant::load(text, None)
    }

    /// Reads a variant from its TOML text with the house rules `rules`
    /// switched on instead of the file's `[rules] house_rules`, under the
    /// name `name`: one file (Xiangqi's) makes a variant per set of house
    /// rules, each refused as the file would be (an unknown rule, two that
    /// exclude each other).
    pub fn with_house_rules(text: &str, name: &str, rules: &[&str]) -> Result<Variant, VariantError> {
        Variant::load(text, Some((name, rules)))
    }

    fn load(text: &str, house_rules: Option<(&str, &[&str])>) -> Result<Variant, VariantError> {
        let mut spec: VariantSpec = toml::from_str(text).map_err(|e| {
            let (line, column) = e.span().map_or((0, 0), |s| line_col(text, s.start));
            VariantError::Syntax {
                line,
                column,
                message: e.message().trim().to_owned(),
            }
        })?;
        if let Some((name, rules)) = house_rules {
            spec.name = Spanned::new(spec.name.span(), name.to_owned());
            spec.rules.house_rules = rules.iter().map(|r| (*r).to_owned()).collect();
            spec.description = format!(
                "{} House rules (降和偏方): {}.",
                spec.description,
                rules.join(", ")
            );
        }
        let cx = Ctx { text };
        if spec.name.get_ref().trim().is_empty() {
            return Err(cx.err(spec.name.span(), "the variant's name is empty"));
        }

        let board = spec.board;
        for side in [&board.files, &board.ranks] {
            if !(2..=MAX_SIDE).contains(side.get_ref()) {
                return Err(cx.err(
                    side.span(),
                    format!(
                        "board {}×{} is outside 2×2 … {MAX_SIDE}×{MAX_SIDE}",
                        board.files.get_ref(),
                        board.ranks.get_ref()
                    ),
                ));
            }
        }
        let (files, ranks) = (*board.files.get_ref(), *board.ranks.get_ref());

        let mut regions: BTreeMap<String, [SquareSet; 2]> = BTreeMap::new();
        for (name, region) in &spec.regions {
            let span = region.span();
            let region = region.get_ref();
            let file_range = match &region.files {
                Some(s) => parse_range(s, true, files).ok_or_else(|| {
                    cx.err(
                        span.clone(),
                        format!("region `{name}`: files `{s}` are not like `d-f` on this board"),
                    )
                })?,
                None => (0, files - 1),
            };
            let rank_range = match &region.ranks {
                Some(s) => parse_range(s, false, ranks).ok_or_else(|| {
                    cx.err(
                        span.clone(),
                        format!("region `{name}`: ranks `{s}` are not like `0-2` on this board"),
                    )
                })?,
                None => (0, ranks - 1),
            };
            let mut first = SquareSet::default();
            let mut second = SquareSet::default();
            let mut add = |f: u8, r: u8| {
                first.insert(Square::new(f, r));
                second.insert(Square::new(f, ranks - 1 - r));
            };
            if region.files.is_some() || region.ranks.is_some() || region.squares.is_empty() {
                for f in file_range.0..=file_range.1 {
                    for r in rank_range.0..=rank_range.1 {
                        add(f, r);
                    }
                }
            }
            for s in &region.squares {
                let sq = Square::parse(s)
                    .filter(|q| q.file() < files && q.rank() < ranks)
                    .ok_or_else(|| {
                        cx.err(
                            span.clone(),
                            format!("region `{name}`: `{s}` is no square of this board"),
                        )
                    })?;
                add(sq.file(), sq.rank());
            }
            regions.insert(name.clone(), [first, second]);
        }
        let region = |name: &Option<String>,
                      span: &std::ops::Range<usize>|
         -> Result<Option<[SquareSet; 2]>, VariantError> {
            match name {
                None => Ok(None),
                Some(n) => regions.get(n).copied().map(Some).ok_or_else(|| {
                    let known: Vec<&str> = regions.keys().map(String::as_str).collect();
                    cx.err(
                        span.clone(),
                        format!("unknown region `{n}` (the file defines: {})", known.join(", ")),
                    )
                }),
            }
        };

        if spec.pieces.is_empty() {
            return Err(cx.err(0..0, "no [[pieces]] defined"));
        }
        if spec.pieces.len() > 100 {
            return Err(cx.err(0..0, "more than 100 piece types"));
        }
        let names: Vec<&str> = spec.pieces.iter().map(|p| p.get_ref().name.as_str()).collect();
        let types =
            |list: &[String], what: &str, span: &std::ops::Range<usize>| -> Result<TypeSet, VariantError> {
                let mut set = 0u128;
                for n in list {
                    let i = names.iter().position(|m| m == n).ok_or_else(|| {
                        cx.err(
                            span.clone(),
                            format!(
                                "{what}: unknown piece `{n}` (the file defines: {})",
                                names.join(", ")
                            ),
                        )
                    })?;
                    set |= 1 << i;
                }
                Ok(TypeSet(set))
            };
        // House rules: every one switched on is some movement's, and no two
        // that exclude each other are on together.
        let rules_on = &spec.rules.house_rules;
        let tagged: Vec<&str> = spec
            .pieces
            .iter()
            .flat_map(|p| p.get_ref().moves.iter())
            .flat_map(|m| {
                m.get_ref()
                    .house_rule
                    .iter()
                    .flat_map(|t| t.names().iter().map(String::as_str))
            })
            .chain(
                spec.rules
                    .revivals
                    .iter()
                    .filter_map(|r| r.get_ref().house_rule.as_deref()),
            )
            .chain(
                spec.rules
                    .double_moves
                    .iter()
                    .filter_map(|d| d.get_ref().house_rule.as_deref()),
            )
            .chain(
                spec.rules
                    .royal_screens
                    .iter()
                    .filter_map(|d| d.get_ref().house_rule.as_deref()),
            )
            .chain(
                spec.rules
                    .flags
                    .iter()
                    .filter_map(|d| d.get_ref().house_rule.as_deref()),
            )
            .chain(
                spec.rules
                    .repetition
                    .iter()
                    .filter_map(|d| d.get_ref().house_rule.as_deref()),
            )
            .collect();
        for group in &spec.rules.exclusive_house_rules {
            let on: Vec<&str> = group
                .iter()
                .filter(|r| rules_on.contains(r))
                .map(String::as_str)
                .collect();
            if on.len() > 1 {
                return Err(cx.err(
                    0..0,
                    format!("house rules {} may not be switched on together", on.join(" and ")),
                ));
            }
        }
        for rule in rules_on {
            if !tagged.contains(&rule.as_str()) {
                return Err(cx.err(
                    0..0,
                    format!("house rule `{rule}` is switched on, but no movement or rule belongs to it"),
                ));
            }
        }
        // Promotions first: a promoted form takes its base's letter.
        let mut promotes_to: Vec<Option<usize>> = vec![None; spec.pieces.len()];
        let mut promoted_from: Vec<Option<usize>> = vec![None; spec.pieces.len()];
        for (i, piece) in spec.pieces.iter().enumerate() {
            let Some(target) = &piece.get_ref().promotes_to else {
                continue;
            };
            let span = piece.span();
            let name = &piece.get_ref().name;
            let t = names.iter().position(|m| m == target).ok_or_else(|| {
                cx.err(
                    span.clone(),
                    format!(
                        "piece `{name}`: promotes to unknown piece `{target}` (the file defines: {})",
                        names.join(", ")
                    ),
                )
            })?;
            let tp = spec.pieces[t].get_ref();
            if t == i
                || tp.promotes_to.is_some()
                || tp.royal
                || tp.letter.is_some()
                || promoted_from[t].is_some()
            {
                return Err(cx.err(
                    span,
                    format!("piece `{name}`: promotes to `{target}`, which must be another piece with no letter, not royal, not promoting again and the promotion of no other"),
                ));
            }
            promotes_to[i] = Some(t);
            promoted_from[t] = Some(i);
        }
        let mut pieces: Vec<PieceType> = Vec::new();
        for (index, piece) in spec.pieces.iter().enumerate() {
            let span = piece.span();
            let p = piece.get_ref();
            let letter = match (p.letter, promoted_from[index]) {
                (Some(l), None) => l.to_ascii_lowercase(),
                (None, Some(base)) => spec.pieces[base]
                    .get_ref()
                    .letter
                    .map_or('?', |l| l.to_ascii_lowercase()),
                (None, None) => {
                    return Err(cx.err(span, format!("piece `{}` has no letter", p.name)));
                }
                (Some(_), Some(_)) => unreachable!("refused above"),
            };
            if !letter.is_ascii_lowercase() {
                return Err(cx.err(
                    span,
                    format!("piece `{}`: letter `{letter}` is not a letter a–z", p.name),
                ));
            }
            if let Some(other) = (promoted_from[index].is_none())
                .then(|| {
                    pieces
                        .iter()
                        .find(|q| q.letter == letter && q.promoted_from.is_none())
                })
                .flatten()
            {
                return Err(cx.err(
                    span,
                    format!(
                        "piece `{}`: letter `{letter}` is already `{}`'s",
                        p.name, other.name
                    ),
                ));
            }
            if p.moves.is_empty() {
                return Err(cx.err(span, format!("piece `{}` has no moves", p.name)));
            }
            let mut movements = Vec::new();
            for (i, m) in p.moves.iter().enumerate() {
                let mspan = m.span();
                let m = m.get_ref();
                let what = format!("piece `{}`, move {}", p.name, i + 1);
                if m.house_rule
                    .as_ref()
                    .is_some_and(|t| t.names().iter().any(|r| !rules_on.contains(r)))
                {
                    // A house rule that is off: the movement does not exist.
                    continue;
                }
                let mut offsets = Vec::new();
                for d in &m.dirs {
                    match d {
                        DirSpec::Named(n) => {
                            let named = named_dirs(n).ok_or_else(|| {
                                cx.err(mspan.clone(), format!("{what}: unknown direction `{n}` (orthogonal, diagonal, forward, backward, sideways, forward_diagonal, backward_diagonal, or an offset [file, rank])"))
                            })?;
                            for &o in named {
                                expand(o, m.symmetry, &mut offsets);
                            }
                        }
                        DirSpec::Offset([x, y]) => {
                            if (*x, *y) == (0, 0)
                                || x.unsigned_abs() >= MAX_SIDE
                                || y.unsigned_abs() >= MAX_SIDE
                            {
                                return Err(cx.err(
                                    mspan.clone(),
                                    format!("{what}: offset [{x}, {y}] goes nowhere or off any board"),
                                ));
                            }
                            expand((*x, *y), m.symmetry, &mut offsets);
                        }
                    }
                }
                if offsets.is_empty() {
                    return Err(cx.err(mspan, format!("{what}: no directions")));
                }
                let kind = match m.kind {
                    KindSpec::Step | KindSpec::Leap => Kind::Leap {
                        lame: m.lame,
                        diagonal: m.leg == LegSpec::Diagonal,
                    },
                    KindSpec::Slide => Kind::Slide,
                    KindSpec::Hop => Kind::Hop,
                };
                if m.kind == KindSpec::Step && offsets.iter().any(|&(x, y)| x.abs() > 1 || y.abs() > 1) {
                    return Err(cx.err(
                        mspan,
                        format!("{what}: a step goes to a neighbouring square; use kind = \"leap\""),
                    ));
                }
                if m.screen != WhoSpec::Any && m.kind != KindSpec::Hop {
                    return Err(cx.err(mspan, format!("{what}: only a hop has a screen")));
                }
                if m.blocked_by != WhoSpec::Any && !m.lame {
                    return Err(cx.err(mspan, format!("{what}: only a lame leap is blocked (blocked_by)")));
                }
                if !m.not_over.is_empty() && m.kind != KindSpec::Hop {
                    return Err(cx.err(mspan, format!("{what}: only a hop has screens (not_over)")));
                }
                let not_over = types(&m.not_over, &what, &mspan)?;
                let lacking = types(&m.while_lacking, &what, &mspan)?;
                let not_capture = types(&m.not_capture, &what, &mspan)?;
                if m.leg != LegSpec::Path && !m.lame {
                    return Err(cx.err(mspan, format!("{what}: only a lame leap has a leg (leg)")));
                }
                if m.lame && !matches!(m.kind, KindSpec::Leap) {
                    return Err(cx.err(mspan, format!("{what}: only a leap can be lame")));
                }
                if m.range.is_some() && matches!(kind, Kind::Leap { .. }) {
                    return Err(cx.err(mspan, format!("{what}: range applies to slides and hops only")));
                }
                let range = m.range.unwrap_or(MAX_SIDE);
                if range == 0 {
                    return Err(cx.err(mspan, format!("{what}: range 0 goes nowhere")));
                }
                let mode = match m.mode {
                    ModeSpec::Both => Mode::Both,
                    ModeSpec::Move => Mode::Move,
                    ModeSpec::Capture => Mode::Capture,
                };
                let second: Vec<(i8, i8)> = offsets.iter().map(|&(x, y)| (x, -y)).collect();
                movements.push(Movement {
                    kind,
                    mode,
                    range,
                    sided: [offsets.clone(), second],
                    offsets,
                    from: region(&m.from, &mspan)?,
                    to: region(&m.to, &mspan)?,
                    not_over,
                    not_capture,
                    blocked_by: m.blocked_by.into(),
                    screen: m.screen.into(),
                    lacking,
                    royal_on: region(&m.while_royal_on, &mspan)?,
                });
            }
            let value = match &p.value {
                Some(v) if *v.get_ref() > 100_000 => {
                    return Err(cx.err(
                        v.span(),
                        format!("piece `{}`: value {} is above 100000", p.name, v.get_ref()),
                    ));
                }
                Some(v) => Some(*v.get_ref() as i32),
                None => None,
            };
            let glyph = match &p.glyph {
                None => None,
                Some(GlyphSpec::Both(g)) => Some([g.clone(), g.clone()]),
                Some(GlyphSpec::Sided(s)) => Some([s.red.clone(), s.black.clone()]),
            };
            if glyph
                .as_ref()
                .is_some_and(|g| g.iter().any(|g| g.trim().is_empty() || g.chars().count() > 4))
            {
                return Err(cx.err(
                    span,
                    format!("piece `{}`: a glyph is one to four characters", p.name),
                ));
            }
            pieces.push(PieceType {
                name: p.name.clone(),
                letter,
                royal: p.royal,
                value,
                glyph,
                movements,
                promotes_to: promotes_to[index],
                promoted_from: promoted_from[index],
            });
        }
        if pieces.iter().filter(|p| p.royal).count() > 1 {
            return Err(cx.err(0..0, "more than one royal piece type"));
        }

        let rules = spec.rules;
        let royal = pieces.iter().any(|p| p.royal);
        if (rules.pass || rules.bikjang) && !royal {
            return Err(cx.err(
                0..0,
                "pass and bikjang need a royal piece (a pass is written as its square twice)",
            ));
        }
        if rules.bikjang && rules.flying_general {
            return Err(cx.err(0..0, "bikjang and flying_general exclude each other"));
        }
        // Several royals a side: the rules that are about the one royal
        // (its square as the pass, two royals facing, a power while it
        // stands somewhere) have no meaning then and are refused.
        let royals = match rules.royals.as_ref().map(|r| (r.span(), *r.get_ref())) {
            None | Some((_, RoyalsSpec::One)) => Royals::One,
            Some((span, several)) => {
                if !royal {
                    return Err(cx.err(span, "royals: `any` and `all` need a royal piece type"));
                }
                let lone = [
                    (rules.flying_general, "flying_general"),
                    (rules.pass, "pass"),
                    (rules.bikjang, "bikjang"),
                    (
                        pieces
                            .iter()
                            .any(|p| p.movements.iter().any(|m| m.royal_on.is_some())),
                        "while_royal_on",
                    ),
                ];
                if let Some((_, what)) = lone.iter().find(|(on, _)| *on) {
                    return Err(cx.err(
                        span,
                        format!("royals: several royals a side do not go with {what}, which is about the one royal"),
                    ));
                }
                if matches!(several, RoyalsSpec::Any) {
                    Royals::Any
                } else {
                    Royals::All
                }
            }
        };
        let counting = match &rules.counting {
            None => None,
            Some(c) => {
                let span = c.span();
                let c = c.get_ref();
                let mut values = vec![0.0; pieces.len()];
                for (name, &v) in &c.values {
                    let i = names.iter().position(|m| m == name).ok_or_else(|| {
                        cx.err(
                            span.clone(),
                            format!(
                                "counting: unknown piece `{name}` (the file defines: {})",
                                names.join(", ")
                            ),
                        )
                    })?;
                    if !v.is_finite() {
                        return Err(cx.err(span, format!("counting: `{name}` is not a number")));
                    }
                    values[i] = v;
                }
                if !c.second_bonus.is_finite() {
                    return Err(cx.err(span, "counting: second_bonus is not a number"));
                }
                Some(Counting {
                    values,
                    second_bonus: c.second_bonus,
                })
            }
        };
        // A rule tagged with a house rule that is off does not exist.
        let in_force = |tag: &Option<String>| tag.as_ref().is_none_or(|r| rules.house_rules.contains(r));
        let piece_index = |n: &str, what: &str, span: &std::ops::Range<usize>| {
            names.iter().position(|m| *m == n).ok_or_else(|| {
                cx.err(
                    span.clone(),
                    format!(
                        "{what}: unknown piece `{n}` (the file defines: {})",
                        names.join(", ")
                    ),
                )
            })
        };
        let mut revivals: Vec<Revival> = Vec::new();
        for r in rules
            .revivals
            .iter()
            .filter(|r| in_force(&r.get_ref().house_rule))
        {
            let span = r.span();
            let r = r.get_ref();
            let set = types(&r.pieces, "revival", &span)?;
            if set.is_empty() {
                return Err(cx.err(span, "revival: no pieces"));
            }
            for (i, p) in pieces.iter().enumerate() {
                if set.contains(i) && (p.royal || p.promoted_from.is_some()) {
                    return Err(cx.err(
                        span,
                        format!(
                            "revival: `{}` is royal or a promoted form; revive its base instead",
                            p.name
                        ),
                    ));
                }
            }
            if revivals.iter().any(|o| o.pieces.0 & set.0 != 0) {
                return Err(cx.err(span, "revival: a piece is revived by two rules"));
            }
            let to = region(&Some(r.to.clone()), &span)?.expect("a region was named");
            revivals.push(Revival {
                pieces: set,
                to,
                after_capture: r.after_capture,
            });
        }
        let mut double_move = None;
        for d in rules
            .double_moves
            .iter()
            .filter(|d| in_force(&d.get_ref().house_rule))
        {
            let span = d.span();
            if double_move.is_some() {
                return Err(cx.err(span, "double move: only one may be in force"));
            }
            let d = d.get_ref();
            let first = types(&d.first, "double move", &span)?;
            let captures = types(&d.after.captures, "double move", &span)?;
            if first.is_empty() || captures.is_empty() {
                return Err(cx.err(
                    span,
                    "double move: `first` and `after.captures` name at least one piece",
                ));
            }
            double_move = Some(DoubleMove {
                mover: piece_index(&d.after.mover, "double move", &span)?,
                captures,
                first_move: d.after.first_move,
                first,
            });
        }
        let mut royal_screen = TypeSet::default();
        for r in rules
            .royal_screens
            .iter()
            .filter(|r| in_force(&r.get_ref().house_rule))
        {
            let span = r.span();
            if !rules.flying_general {
                return Err(cx.err(
                    span,
                    "royal screens are about royals facing: they need flying_general",
                ));
            }
            let set = types(&r.get_ref().pieces, "royal screen", &span)?;
            if let Some(p) = pieces.iter().enumerate().find(|(i, p)| {
                set.contains(*i)
                    && !p
                        .movements
                        .iter()
                        .any(|m| m.kind == Kind::Hop && m.mode.captures())
            }) {
                return Err(cx.err(
                    span,
                    format!("royal screen: `{}` has no hop that captures", p.1.name),
                ));
            }
            royal_screen.0 |= set.0;
        }
        let mut flags = None;
        for f in rules.flags.iter().filter(|f| in_force(&f.get_ref().house_rule)) {
            let span = f.span();
            let spec = f.get_ref();
            if flags.is_some() {
                return Err(cx.err(span, "flags: only one ring may be in force"));
            }
            if !royal {
                return Err(cx.err(span, "flags answer checks: they need a royal piece"));
            }
            if spec.points < 4
                || spec.start.iter().any(|&p| p >= spec.points)
                || spec.start[0] == spec.start[1]
            {
                return Err(cx.err(
                    span,
                    "flags: a ring of at least 4 points, two different starts on it",
                ));
            }
            flags = Some(FlagRing {
                points: spec.points,
                start: spec.start,
            });
        }
        // The repetition rule: the simple rule set's unless one table in
        // force says otherwise (解将旗's file asks for 长将 to draw).
        let mut repetition = None;
        for r in rules
            .repetition
            .iter()
            .filter(|r| in_force(&r.get_ref().house_rule))
        {
            let span = r.span();
            let spec = r.get_ref();
            if repetition.is_some() {
                return Err(cx.err(span, "repetition: only one repetition rule may be in force"));
            }
            if !(2..=10).contains(&spec.count) {
                return Err(cx.err(
                    span,
                    format!(
                        "repetition: count {} is not 2 … 10 (the how-many-th time on the board ends the game)",
                        spec.count
                    ),
                ));
            }
            let perpetual_check = EndValue::from(spec.perpetual_check);
            if perpetual_check == EndValue::Win {
                return Err(cx.err(
                    span,
                    "repetition: perpetual_check is loss or draw (checking forever wins nothing)",
                ));
            }
            repetition = Some(Repetition {
                count: spec.count,
                perpetual_check,
            });
        }
        if (!revivals.is_empty() || double_move.is_some() || flags.is_some()) && (rules.pass || rules.bikjang)
        {
            return Err(cx.err(
                0..0,
                "revivals and double moves are not combined with pass or bikjang",
            ));
        }
        let mut variant = Variant {
            name: spec.name.into_inner(),
            description: spec.description,
            files,
            ranks,
            pieces,
            start_fen: spec.start.get_ref().clone(),
            flying_general: rules.flying_general,
            checkmate: rules.checkmate.into(),
            stalemate: rules.stalemate.into(),
            pass: rules.pass,
            bikjang: rules.bikjang,
            counting,
            regions,
            house_rules: rules.house_rules.clone(),
            repetition: repetition.unwrap_or_default(),
            royals,
            revivals,
            double_move,
            royal_screen,
            royal_flies: false,
            flags,
            conditional: false,
            weights: std::sync::OnceLock::new(),
            probes: [Vec::new(), Vec::new()],
            leaps: [Vec::new(), Vec::new()],
            rays: [Vec::new(), Vec::new()],
            zones: [Vec::new(), Vec::new()],
            leap_zones: [Vec::new(), Vec::new()],
            ray_zones: [Vec::new(), Vec::new()],
        };
        variant.royal_flies = variant.pieces.iter().any(|p| {
            p.royal
                && p.movements
                    .iter()
                    .any(|m| matches!(m.kind, Kind::Slide | Kind::Hop) && m.mode.captures())
        });
        variant.conditional = variant
            .pieces
            .iter()
            .any(|p| p.movements.iter().any(|m| !m.lacking.is_empty()));
        variant.build_probes();
        let start_span = spec.start.span();
        if rules.flying_general && !royal {
            return Err(cx.err(0..0, "flying_general needs a royal piece"));
        }
        crate::Position::from_fen(std::sync::Arc::new(variant.clone()), &variant.start_fen)
            .map_err(|e| cx.err(start_span, format!("start position: {e}")))?;
        Ok(variant)
    }
}
