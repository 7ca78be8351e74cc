//! TRF, FIDE's tournament report file: read and write.
//!
//! TRF-2016 fixes the columns of a player line (`001`); the header lines
//! are a code and free text. On top of it we read the TRF(x) extensions of
//! JaVaFo and bbpPairings (`XXR` rounds, `XXC white1/black1`, `XXP`
//! forbidden pairs, `BBW`…`BBU` and `XXS` point values — ours and JaVaFo's TRF(x) keys) and the
//! TRF-2026 codes bbpPairings reads (`142` rounds, `152` initial colour,
//! `162` point system, `240` byes, `260` forbidden pairs). Lines we do not
//! interpret are kept verbatim, so an arbiter's file survives a round trip.
//!
//! Reading never panics: every problem is a [`TrfError`] naming the line.

use crate::model::{Colour, Outcome, PlayerId, PointSystem, Points, RoundEntry, Tournament};

/// What is wrong with a TRF file, and on which line (1-based).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("TRF line {line}: {kind}")]
pub struct TrfError {
    pub line: usize,
    pub kind: TrfErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrfErrorKind {
    #[error("pairing number {0:?} is not a number from 1 to 9999")]
    BadPairingNumber(String),
    #[error("pairing number {0} appears twice")]
    DuplicatePlayer(PlayerId),
    #[error("rating {0:?} is not a number")]
    BadRating(String),
    #[error("points {0:?} are not a number with at most one decimal")]
    BadPoints(String),
    #[error("round {round}: opponent {text:?} is not a pairing number")]
    BadOpponent { round: u32, text: String },
    #[error("round {round}: colour {0:?} is not w, b or -", .text)]
    BadColour { round: u32, text: char },
    #[error("round {round}: result {text:?} is not a TRF result code")]
    BadResult { round: u32, text: char },
    #[error("round {round}: {what}")]
    Inconsistent { round: u32, what: String },
    #[error("player {player} plays himself in round {round}")]
    SelfPairing { player: PlayerId, round: u32 },
    #[error("round {round}: player {player} names opponent {opponent}, who is not in the file")]
    UnknownOpponent {
        player: PlayerId,
        opponent: PlayerId,
        round: u32,
    },
    #[error("round {round}: players {a} and {b} disagree about their game")]
    Mismatch { a: PlayerId, b: PlayerId, round: u32 },
    #[error("{0}")]
    BadValue(String),
}

fn err(line: usize, kind: TrfErrorKind) -> TrfError {
    TrfError { line, kind }
}

/// Columns of a `001` line (0-based, end exclusive), TRF-2016.
const ID: (usize, usize) = (4, 8);
const SEX: (usize, usize) = (9, 10);
const TITLE: (usize, usize) = (10, 13);
const NAME: (usize, usize) = (14, 47);
const RATING: (usize, usize) = (48, 52);
const FED: (usize, usize) = (53, 56);
const FIDE_ID: (usize, usize) = (57, 68);
const BIRTH: (usize, usize) = (69, 79);
const POINTS: (usize, usize) = (80, 84);
const RANK: (usize, usize) = (85, 89);
/// The first round's cell starts here; each cell is 10 columns wide:
/// opponent (4), space, colour, space, result.
const ROUNDS: usize = 91;

fn field(chars: &[char], (a, b): (usize, usize)) -> String {
    let end = b.min(chars.len());
    if a >= end {
        return String::new();
    }
    chars[a..end].iter().collect::<String>().trim().to_string()
}

/// Points written with at most one decimal: `3`, `1.5`, ` 0.0`.
pub fn parse_points(s: &str) -> Option<Points> {
    let s = s.trim();
    if s.is_empty() || s.len() > 9 {
        return None;
    }
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.chars().all(|c| c.is_ascii_digit()) || !frac.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if frac.len() > 1 {
        // More decimals are fine when they are zeros ("1.50").
        if frac[1..].chars().any(|c| c != '0') {
            return None;
        }
    }
    let i: i32 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let f: i32 = frac.chars().next().map_or(0, |c| c as i32 - '0' as i32);
    let v = i.checked_mul(10)?.checked_add(f)?;
    Some(Points(if neg { -v } else { v }))
}

fn parse_id(s: &str) -> Option<PlayerId> {
    let t = s.trim();
    if t.is_empty() || t.len() > 4 || !t.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// Which point values a file set explicitly; the rest follow from them
/// (a forfeit win, a full bye and — unless `BBU` says — the
/// pairing-allocated bye are worth a win; a half bye a draw).
#[derive(Default)]
struct PointLines {
    win: Option<Points>,
    draw: Option<Points>,
    loss: Option<Points>,
    /// Black's, where JaVaFo's `BW`/`BD`/`BL` set them apart.
    black_win: Option<Points>,
    black_draw: Option<Points>,
    black_loss: Option<Points>,
    zero_bye: Option<Points>,
    forfeit_loss: Option<Points>,
    pairing_bye: Option<Points>,
    forfeit_win: Option<Points>,
    half_bye: Option<Points>,
    full_bye: Option<Points>,
    absent: Option<Points>,
}

impl PointLines {
    fn system(&self) -> PointSystem {
        let d = PointSystem::default();
        let win = self.win.unwrap_or(d.win);
        let draw = self.draw.unwrap_or(d.draw);
        let loss = self.loss.unwrap_or(d.loss);
        let mut s = PointSystem::with(win, draw, loss);
        let black = [
            self.black_win.unwrap_or(win),
            self.black_draw.unwrap_or(draw),
            self.black_loss.unwrap_or(loss),
        ];
        if black != [win, draw, loss] {
            s.black = Some(black);
        }
        s.zero_bye = self.zero_bye.unwrap_or(Points::ZERO);
        s.forfeit_loss = self.forfeit_loss.unwrap_or(Points::ZERO);
        s.pairing_bye = self.pairing_bye.unwrap_or(win);
        s.forfeit_win = self.forfeit_win.unwrap_or(win);
        s.half_bye = self.half_bye.unwrap_or(draw);
        s.full_bye = self.full_bye.unwrap_or(win);
        s.absent = self.absent.unwrap_or(s.zero_bye);
        s
    }

    /// `XXS W=3 D=1 L=0 Z=0 F=0 U=3 FW=3 H=1 FB=3 A=0` (our own full
    /// form), and the keys of JaVaFo's TRF(x) as JaVaFo and the programs
    /// that feed it write them: `WW BW WD BD WL BL` (a played game's
    /// points by colour; `W`, `D` and `L` set both colours), `ZPB HPB FPB
    /// PAB` (zero-point, half-point, full-point and pairing-allocated byes),
    /// `FW FL` (forfeit win and loss).
    fn xxs(&mut self, rest: &str) -> Result<(), TrfErrorKind> {
        for tok in rest.split_whitespace() {
            let (k, v) = tok
                .split_once('=')
                .ok_or_else(|| TrfErrorKind::BadValue(format!("XXS item {tok:?} is not KEY=POINTS")))?;
            let p = parse_points(v).ok_or_else(|| TrfErrorKind::BadPoints(v.to_string()))?;
            let slots: &mut [&mut Option<Points>] = match k.to_ascii_uppercase().as_str() {
                "W" => &mut [&mut self.win, &mut self.black_win],
                "D" => &mut [&mut self.draw, &mut self.black_draw],
                "L" => &mut [&mut self.loss, &mut self.black_loss],
                "WW" => &mut [&mut self.win],
                "BW" => &mut [&mut self.black_win],
                "WD" => &mut [&mut self.draw],
                "BD" => &mut [&mut self.black_draw],
                "WL" => &mut [&mut self.loss],
                "BL" => &mut [&mut self.black_loss],
                "Z" | "ZPB" => &mut [&mut self.zero_bye],
                "F" | "FL" => &mut [&mut self.forfeit_loss],
                "U" | "P" | "PAB" => &mut [&mut self.pairing_bye],
                "FW" => &mut [&mut self.forfeit_win],
                "H" | "HPB" => &mut [&mut self.half_bye],
                "FB" | "FPB" => &mut [&mut self.full_bye],
                "A" => &mut [&mut self.absent],
                _ => return Err(TrfErrorKind::BadValue(format!("XXS key {k:?} is unknown"))),
            };
            for slot in slots {
                **slot = Some(p);
            }
        }
        Ok(())
    }
}

/// Read a TRF file. Lines may end in `\n`, `\r\n` or `\r` (bbpPairings
/// writes `\r`).
pub fn parse(text: &str) -> Result<Tournament, TrfError> {
    let mut t = Tournament::default();
    let mut pts = PointLines::default();
    // (line number, pairing number) for cross-checks.
    let mut player_lines: Vec<usize> = Vec::new();
    let mut byes: Vec<(usize, u32, Outcome, PlayerId)> = Vec::new();
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    for (i, line) in text.split('\n').enumerate() {
        let n = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let code: String = line.chars().take(3).collect();
        let rest: String = line.chars().skip(3).collect();
        let rest_trim = rest.trim();
        match code.as_str() {
            "001" => {
                let p = parse_player(line, n)?;
                if t.players.iter().any(|q| q.id == p.id) {
                    return Err(err(n, TrfErrorKind::DuplicatePlayer(p.id)));
                }
                t.players.push(p);
                player_lines.push(n);
            }
            "012" => t.name = rest_trim.to_string(),
            "XXR" | "142" => {
                let r: u32 = rest_trim
                    .parse()
                    .ok()
                    .filter(|&r| r > 0 && r < 1000)
                    .ok_or_else(|| {
                        err(
                            n,
                            TrfErrorKind::BadValue(format!("{rest_trim:?} is not a number of rounds")),
                        )
                    })?;
                t.total_rounds = Some(r);
            }
            "XXC" => {
                for tok in rest_trim.split_whitespace() {
                    match tok {
                        "white1" => t.initial_colour = Some(Colour::White),
                        "black1" => t.initial_colour = Some(Colour::Black),
                        _ => {}
                    }
                }
            }
            "152" => match rest_trim {
                "W" | "w" => t.initial_colour = Some(Colour::White),
                "B" | "b" => t.initial_colour = Some(Colour::Black),
                _ => {
                    return Err(err(
                        n,
                        TrfErrorKind::BadValue(format!("initial colour {rest_trim:?} is not W or B")),
                    ));
                }
            },
            "162" => {
                let chars: Vec<char> = rest.chars().collect();
                let mut i = 0;
                while i < chars.len() {
                    let c = chars[i];
                    if c == ' ' {
                        i += 1;
                        continue;
                    }
                    let mut j = i + 1;
                    while j < chars.len() && chars[j] == ' ' {
                        j += 1;
                    }
                    let mut k = j;
                    while k < chars.len() && chars[k] != ' ' {
                        k += 1;
                    }
                    let v: String = chars[j..k].iter().collect();
                    let p = parse_points(&v).ok_or_else(|| err(n, TrfErrorKind::BadPoints(v.clone())))?;
                    match c {
                        'W' => pts.win = Some(p),
                        'D' => pts.draw = Some(p),
                        'L' => pts.loss = Some(p),
                        'Z' => {
                            pts.zero_bye = Some(p);
                            pts.forfeit_loss = Some(p);
                        }
                        'P' => pts.pairing_bye = Some(p),
                        _ => {
                            return Err(err(
                                n,
                                TrfErrorKind::BadValue(format!("point system symbol {c:?} is unknown")),
                            ));
                        }
                    }
                    i = k;
                }
            }
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                let p = parse_points(rest_trim)
                    .ok_or_else(|| err(n, TrfErrorKind::BadPoints(rest_trim.to_string())))?;
                let slot = match code.as_str() {
                    "BBW" => &mut pts.win,
                    "BBD" => &mut pts.draw,
                    "BBL" => &mut pts.loss,
                    "BBZ" => &mut pts.zero_bye,
                    "BBF" => &mut pts.forfeit_loss,
                    _ => &mut pts.pairing_bye,
                };
                *slot = Some(p);
            }
            "XXS" => pts.xxs(rest_trim).map_err(|k| err(n, k))?,
            "XXP" => {
                let mut g = Vec::new();
                for tok in rest_trim.split_whitespace() {
                    g.push(
                        parse_id(tok)
                            .ok_or_else(|| err(n, TrfErrorKind::BadPairingNumber(tok.to_string())))?,
                    );
                }
                t.forbidden.push(g);
            }
            "260" => {
                // 260 FFF LLL PPPP PPPP …: rounds first..last, then players.
                let mut toks = rest_trim.split_whitespace();
                for _ in 0..2 {
                    let r = toks.next().unwrap_or("");
                    if r.parse::<u32>().is_err() {
                        return Err(err(
                            n,
                            TrfErrorKind::BadValue(format!("round {r:?} is not a number")),
                        ));
                    }
                }
                let mut g = Vec::new();
                for tok in toks {
                    g.push(
                        parse_id(tok)
                            .ok_or_else(|| err(n, TrfErrorKind::BadPairingNumber(tok.to_string())))?,
                    );
                }
                t.forbidden.push(g);
            }
            "240" => {
                // 240 T RRR PPPP PPPP …: byes of kind T (H, F, Z, U) in round RRR.
                let mut toks = rest_trim.split_whitespace();
                let kind = toks.next().unwrap_or("");
                let o = match kind {
                    "H" => Outcome::HalfBye,
                    "F" => Outcome::FullBye,
                    "Z" => Outcome::ZeroBye,
                    "U" => Outcome::PairingBye,
                    _ => {
                        return Err(err(
                            n,
                            TrfErrorKind::BadValue(format!("bye kind {kind:?} is not H, F, Z or U")),
                        ));
                    }
                };
                let r = toks.next().unwrap_or("");
                let r: u32 =
                    r.parse().ok().filter(|&r| r > 0 && r < 1000).ok_or_else(|| {
                        err(n, TrfErrorKind::BadValue(format!("round {r:?} is not a number")))
                    })?;
                for tok in toks {
                    let id = parse_id(tok)
                        .ok_or_else(|| err(n, TrfErrorKind::BadPairingNumber(tok.to_string())))?;
                    byes.push((n, r, o, id));
                }
            }
            _ => t.other_lines.push(line.to_string()),
        }
    }
    t.points = pts.system();
    for (n, r, o, id) in byes {
        let p = t.players.iter_mut().find(|p| p.id == id).ok_or_else(|| {
            err(
                n,
                TrfErrorKind::BadValue(format!("bye for player {id}, who is not in the file")),
            )
        })?;
        while p.rounds.len() < r as usize {
            p.rounds.push(RoundEntry::ABSENT);
        }
        let slot = &mut p.rounds[r as usize - 1];
        if *slot == RoundEntry::ABSENT {
            *slot = RoundEntry::bye(o);
        }
    }
    check_pairs(&t, &player_lines)?;
    Ok(t)
}

fn parse_player(line: &str, n: usize) -> Result<crate::model::Player, TrfError> {
    let chars: Vec<char> = line.chars().collect();
    let id_s = field(&chars, ID);
    let id = parse_id(&id_s)
        .filter(|&i| i > 0)
        .ok_or_else(|| err(n, TrfErrorKind::BadPairingNumber(id_s.clone())))?;
    let rating_s = field(&chars, RATING);
    let rating = if rating_s.is_empty() {
        0
    } else {
        rating_s
            .parse::<u32>()
            .ok()
            .filter(|&r| r < 10000)
            .ok_or_else(|| err(n, TrfErrorKind::BadRating(rating_s.clone())))?
    };
    let points_s = field(&chars, POINTS);
    let declared_points = if points_s.is_empty() {
        None
    } else {
        Some(parse_points(&points_s).ok_or_else(|| err(n, TrfErrorKind::BadPoints(points_s.clone())))?)
    };
    let rank_s = field(&chars, RANK);
    let rank = if rank_s.is_empty() {
        None
    } else {
        Some(parse_id(&rank_s).ok_or_else(|| {
            err(
                n,
                TrfErrorKind::BadValue(format!("rank {rank_s:?} is not a number")),
            )
        })?)
    };
    let mut rounds = Vec::new();
    let mut start = ROUNDS;
    let mut round = 1u32;
    while start < chars.len() {
        let cell: Vec<char> = (0..8)
            .map(|i| chars.get(start + i).copied().unwrap_or(' '))
            .collect();
        let opp_s: String = cell[0..4].iter().collect();
        let colour_c = cell[5];
        let result_c = cell[7];
        if cell[4] != ' ' || cell[6] != ' ' {
            return Err(err(
                n,
                TrfErrorKind::Inconsistent {
                    round,
                    what: "a round cell is \"OOOO C R\" with single spaces".into(),
                },
            ));
        }
        let opponent = if opp_s.trim().is_empty() {
            None
        } else {
            let o = parse_id(&opp_s).ok_or_else(|| {
                err(
                    n,
                    TrfErrorKind::BadOpponent {
                        round,
                        text: opp_s.clone(),
                    },
                )
            })?;
            if o == 0 {
                None
            } else {
                Some(o)
            }
        };
        let colour = match colour_c {
            'w' | 'W' => Some(Colour::White),
            'b' | 'B' => Some(Colour::Black),
            '-' | ' ' => None,
            c => return Err(err(n, TrfErrorKind::BadColour { round, text: c })),
        };
        let outcome = Outcome::from_code(result_c).ok_or(err(
            n,
            TrfErrorKind::BadResult {
                round,
                text: result_c,
            },
        ))?;
        if opponent == Some(id) {
            return Err(err(n, TrfErrorKind::SelfPairing { player: id, round }));
        }
        let bad = |what: &str| {
            err(
                n,
                TrfErrorKind::Inconsistent {
                    round,
                    what: what.to_string(),
                },
            )
        };
        if outcome.is_played() && (opponent.is_none() || colour.is_none()) {
            return Err(bad("a played game needs an opponent and a colour"));
        }
        if opponent.is_some() && !outcome.needs_opponent() {
            return Err(bad("a bye or absence has no opponent"));
        }
        if opponent.is_none() && colour.is_some() {
            return Err(bad("a colour without an opponent"));
        }
        rounds.push(RoundEntry {
            opponent,
            colour,
            outcome,
        });
        start += 10;
        round += 1;
    }
    // Trailing empty cells are no information.
    while rounds.last() == Some(&RoundEntry::ABSENT) && {
        let i = rounds.len() - 1;
        let c: String = (0..8)
            .map(|k| chars.get(ROUNDS + 10 * i + k).copied().unwrap_or(' '))
            .collect();
        c.trim().is_empty()
    } {
        rounds.pop();
    }
    Ok(crate::model::Player {
        id,
        sex: field(&chars, SEX),
        title: field(&chars, TITLE),
        name: field(&chars, NAME),
        rating,
        federation: field(&chars, FED),
        fide_id: field(&chars, FIDE_ID),
        birth: field(&chars, BIRTH),
        declared_points,
        rank,
        rounds,
    })
}

/// Both players of a game must tell the same story: each names the other,
/// opposite colours, mirrored results.
fn check_pairs(t: &Tournament, player_lines: &[usize]) -> Result<(), TrfError> {
    for (i, p) in t.players.iter().enumerate() {
        let n = player_lines.get(i).copied().unwrap_or(0);
        for (k, e) in p.rounds.iter().enumerate() {
            let round = k as u32 + 1;
            let Some(o) = e.opponent else { continue };
            let Some(q) = t.player(o) else {
                return Err(err(
                    n,
                    TrfErrorKind::UnknownOpponent {
                        player: p.id,
                        opponent: o,
                        round,
                    },
                ));
            };
            let f = q.round(round);
            let colours_ok = match (e.colour, f.colour) {
                (Some(a), Some(b)) => a != b,
                (None, None) => true,
                _ => false,
            };
            // A double forfeit ("-" on both sides) is allowed.
            let double_forfeit = e.outcome == Outcome::ForfeitLoss && f.outcome == Outcome::ForfeitLoss;
            if f.opponent != Some(p.id)
                || !colours_ok
                || (e.outcome.mirrored() != Some(f.outcome) && !double_forfeit)
            {
                return Err(err(n, TrfErrorKind::Mismatch { a: p.id, b: o, round }));
            }
        }
    }
    Ok(())
}

/// Write a tournament as TRF: the `012` line, the lines we keep verbatim,
/// the TRF(x)/bbpPairings codes for rounds, colour and points, then one
/// `001` line per player. Lines end in `\n`. What this writes, [`parse`]
/// reads back to the same [`Tournament`].
pub fn write(t: &Tournament) -> String {
    let mut out = String::new();
    if !t.name.is_empty() {
        out.push_str(&format!("012 {}\n", t.name));
    }
    for l in &t.other_lines {
        out.push_str(l);
        out.push('\n');
    }
    if let Some(r) = t.total_rounds {
        out.push_str(&format!("XXR {r}\n"));
    }
    match t.initial_colour {
        Some(Colour::White) => out.push_str("XXC white1\n"),
        Some(Colour::Black) => out.push_str("XXC black1\n"),
        None => {}
    }
    let s = t.points;
    let d = PointSystem::default();
    // bbpPairings' codes for what it understands …
    let bb = [
        ("BBW", s.win, d.win),
        ("BBD", s.draw, d.draw),
        ("BBL", s.loss, d.loss),
        ("BBZ", s.zero_bye, d.zero_bye),
        ("BBF", s.forfeit_loss, d.forfeit_loss),
    ];
    for (code, v, dv) in bb {
        if v != dv {
            out.push_str(&format!("{code} {v:>4}\n"));
        }
    }
    if s.pairing_bye != s.win {
        out.push_str(&format!("BBU {:>4}\n", s.pairing_bye));
    }
    // … and ours for the rest.
    let mut xxs = Vec::new();
    if s.forfeit_win != s.win {
        xxs.push(format!("FW={}", s.forfeit_win));
    }
    if s.half_bye != s.draw {
        xxs.push(format!("H={}", s.half_bye));
    }
    if s.full_bye != s.win {
        xxs.push(format!("FB={}", s.full_bye));
    }
    if s.absent != s.zero_bye {
        xxs.push(format!("A={}", s.absent));
    }
    if let Some([w, d, l]) = s.black {
        xxs.push(format!("BW={w} BD={d} BL={l}"));
    }
    if !xxs.is_empty() {
        out.push_str(&format!("XXS {}\n", xxs.join(" ")));
    }
    for g in &t.forbidden {
        let ids: Vec<String> = g.iter().map(|i| i.to_string()).collect();
        out.push_str(&format!("XXP {}\n", ids.join(" ")));
    }
    for p in &t.players {
        out.push_str(&player_line(p));
        out.push('\n');
    }
    out
}

fn fit(s: &str, w: usize) -> String {
    let mut c: String = s.chars().take(w).collect();
    while c.chars().count() < w {
        c.push(' ');
    }
    c
}

fn fit_right(s: &str, w: usize) -> String {
    let c: String = s.chars().take(w).collect();
    format!("{c:>w$}")
}

/// One `001` line in TRF-2016 columns.
pub fn player_line(p: &crate::model::Player) -> String {
    let mut l = String::from("001 ");
    l.push_str(&fit_right(&p.id.to_string(), 4));
    l.push(' ');
    l.push_str(&fit(&p.sex, 1));
    l.push_str(&fit_right(&p.title, 3));
    l.push(' ');
    l.push_str(&fit(&p.name, 33));
    l.push(' ');
    l.push_str(&fit_right(
        &if p.rating == 0 {
            String::new()
        } else {
            p.rating.to_string()
        },
        4,
    ));
    l.push(' ');
    l.push_str(&fit(&p.federation, 3));
    l.push(' ');
    l.push_str(&fit_right(&p.fide_id, 11));
    l.push(' ');
    l.push_str(&fit(&p.birth, 10));
    l.push(' ');
    l.push_str(&fit_right(
        &p.declared_points.map_or(String::new(), |x| x.to_string()),
        4,
    ));
    l.push(' ');
    l.push_str(&fit_right(&p.rank.map_or(String::new(), |x| x.to_string()), 4));
    for e in &p.rounds {
        l.push_str("  ");
        let opp = match (e.opponent, e.outcome) {
            (Some(o), _) => format!("{o:>4}"),
            (None, _) => "0000".to_string(),
        };
        l.push_str(&opp);
        l.push(' ');
        l.push(match e.colour {
            Some(Colour::White) => 'w',
            Some(Colour::Black) => 'b',
            None => '-',
        });
        l.push(' ');
        l.push(e.outcome.code());
    }
    // bbpPairings wants every round cell whole, a blank result included.
    if p.rounds.is_empty() {
        l.trim_end().to_string()
    } else {
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "012 AutoTest Tournament 42\r001    1      Test0001 Player0001               2568                             7.0    7     7 b 1     6 w 1     3 b 0\r001    7      Test0007 Player0007               2349                             9.0    4     1 w 0  0000 - U  0000 - H\r001    6      Test0006 Player0006               2371                             3.0   13  0000 - Z     1 b 0  0000 -  \r001    3      Test0003 Player0003               2527                             9.0    3  0000 - F  0000 - Z     1 w 1\r\r092 FIDE_DUTCH_2025\r162  W 3.0    D 1.0\r";

    #[test]
    fn reads_bbpairings_output() {
        let t = parse(SAMPLE).unwrap();
        assert_eq!(t.name, "AutoTest Tournament 42");
        assert_eq!(t.players.len(), 4);
        assert_eq!(t.points.win, Points::whole(3));
        assert_eq!(t.points.draw, Points::whole(1));
        assert_eq!(t.points.pairing_bye, Points::whole(3));
        let p7 = t.player(7).unwrap();
        assert_eq!(p7.rating, 2349);
        assert_eq!(p7.round(2).outcome, Outcome::PairingBye);
        assert_eq!(p7.round(3).outcome, Outcome::HalfBye);
        assert_eq!(t.player(6).unwrap().round(3).outcome, Outcome::Absent);
        assert_eq!(t.player(6).unwrap().rounds.len(), 3);
        assert_eq!(t.other_lines, vec!["092 FIDE_DUTCH_2025".to_string()]);
        assert_eq!(parse(&write(&t)).unwrap(), t);
    }

    #[test]
    fn reads_trf_2026_codes() {
        let text = "012 New codes\n142 9\n152 B\n162  W 3.0    D 1.0    P 1.0\n240 H   2    2\n260   1   9    1    3\n\
001    1      A                                 2000                             3.0          3 w 1\n\
001    2      B                                 1900                             1.0       0000 - U\n\
001    3      C                                 1800                             0.0          1 b 0\n";
        let t = parse(text).unwrap();
        assert_eq!(t.total_rounds, Some(9));
        assert_eq!(t.initial_colour, Some(Colour::Black));
        assert_eq!(t.points.win, Points::whole(3));
        assert_eq!(t.points.pairing_bye, Points::whole(1));
        assert_eq!(t.player(2).unwrap().round(2).outcome, Outcome::HalfBye);
        assert_eq!(t.forbidden, vec![vec![1, 3]]);
        assert!(t.is_forbidden(3, 1));
        let back = parse(&write(&t)).unwrap();
        assert_eq!(back, t);
    }

    /// The `XXS` line a JaVaFo user's file carries (the keys of JaVaFo's
    /// Advanced User Manual, TRF(x)): every key is read, and the half-point
    /// bye worth a whole point here counts as the file says.
    #[test]
    fn reads_javafo_xxs_keys() {
        let text = "012 From JaVaFo\nXXR 3\n\
XXS WW=1.0 BW=1.0 WD=0.5 BD=0.5 WL=0.0 BL=0.0 ZPB=0.0 HPB=1.0 FPB=1.0 PAB=1.0 FW=1.0 FL=0.0 W=1.0 D=0.5\n\
001    1      A                                 2000                             2.0          2 w 1  0000 - H\n\
001    2      B                                 1900                             1.0          1 b 0  0000 - U\n";
        let t = parse(text).unwrap();
        assert_eq!(t.points.black, None);
        assert_eq!(t.points.half_bye, Points::whole(1));
        assert_eq!(t.points.zero_bye, Points::ZERO);
        assert_eq!(t.points.pairing_bye, Points::whole(1));
        assert_eq!(t.score_after(1, 2), Points::whole(2));
        assert_eq!(parse(&write(&t)).unwrap(), t);
        let e = parse("XXS WW=1.0 QQ=2\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.to_string().contains("QQ"), "{e}");
    }

    /// Points by colour (JaVaFo's `BW`/`BD`/`BL` apart from `WW`/`WD`/`WL`):
    /// a win with Black is worth 1.5 here, so the declared totals only add
    /// up when the colour is counted; the writer keeps the difference.
    #[test]
    fn points_can_depend_on_the_colour() {
        let text = "012 Colours\n\
XXS WW=1.0 BW=1.5 WD=0.5 BD=1.0 WL=0.0 BL=0.0\n\
001    1      A                                 2000                             1.0          2 w 0     3 b =\n\
001    2      B                                 1900                             2.5          1 b 1  0000 - U\n\
001    3      C                                 1800                             1.5       0000 - U     1 w =\n";
        let t = parse(text).unwrap();
        assert_eq!(
            t.points.black,
            Some([Points::tenths(15), Points::whole(1), Points::ZERO])
        );
        // A: a loss with White, a draw with Black (1.0, not 0.5).
        assert_eq!(t.score_after(1, 2), Points::whole(1));
        // B: a win with Black (1.5), then a bye worth White's win.
        assert_eq!(t.score_after(2, 2), Points::tenths(25));
        // C: a bye, then a draw with White.
        assert_eq!(t.score_after(3, 2), Points::tenths(15));
        let written = write(&t);
        assert!(written.contains("BW=1.5"), "{written}");
        assert_eq!(parse(&written).unwrap(), t);
    }

    #[test]
    fn errors_name_the_line() {
        let bad = "012 x\n001    1      A                                 2000                             1.0          2 w 1\n001    2      B                                 2000                             0.0          1 w 0\n";
        let e = parse(bad).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(matches!(e.kind, TrfErrorKind::Mismatch { .. }));
        let e = parse("001 abcd").unwrap_err();
        assert_eq!(e, err(1, TrfErrorKind::BadPairingNumber("abcd".into())));
        let e = parse("012 x\nXXR many\n").unwrap_err();
        assert_eq!(e.line, 2);
    }
}
