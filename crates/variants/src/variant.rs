//! A compiled variant: the board, its regions as square sets per side, and
//! each piece type's movements with their offsets already turned to each
//! side's view. Built only by [`Variant::from_toml`] (`spec.rs`), so every
//! region and letter here has been checked.

use crate::square::{Square, STRIDE};
use game::Side;

/// A set of squares (256 bits: boards up to 16×16).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SquareSet([u64; 4]);

impl SquareSet {
    pub(crate) fn insert(&mut self, sq: Square) {
        self.0[usize::from(sq.0 >> 6)] |= 1 << (sq.0 & 63);
    }

    pub(crate) fn union_with(&mut self, other: &SquareSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }

    #[inline]
    pub(crate) fn contains(&self, sq: u8) -> bool {
        self.0[usize::from(sq >> 6)] >> (sq & 63) & 1 != 0
    }
}

/// How a movement travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One jump by the offset (a step is a leap of one square). A lame leap
    /// (`lame = true`) is blocked by a piece on its leg: the horse's 蹩马腿
    /// and the elephant's 塞象眼; with `diagonal` (`leg = "diagonal"`) the
    /// leg is the one point diagonally towards the destination, whatever
    /// the leap's length (破河象's “用”字, “斜一格若有棋则该方向蹩腿”).
    Leap { lame: bool, diagonal: bool },
    /// Repeats the offset until blocked (the rook 车), at most `range` times.
    Slide,
    /// Repeats the offset over exactly one screen (炮架): the Xiangqi
    /// cannon's capture, and with `mode = "both"` Janggi's cannon (포), which
    /// must jump to move at all.
    Hop,
}

/// Whose pieces count: those that block a lame leap (`blocked_by`), or that
/// may serve as a hopper's screen (`screen`), seen from the moving piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Who {
    #[default]
    Any,
    Own,
    Enemy,
}

impl Who {
    /// Whether a piece of `owner` counts for a piece of `mover`.
    #[inline]
    pub(crate) fn counts(self, owner: Side, mover: Side) -> bool {
        match self {
            Who::Any => true,
            Who::Own => owner == mover,
            Who::Enemy => owner != mover,
        }
    }
}

/// A set of piece types, by their index in [`Variant::pieces`] (at most 100).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TypeSet(pub(crate) u128);

impl TypeSet {
    #[inline]
    #[must_use]
    pub fn contains(self, piece: usize) -> bool {
        self.0 >> piece & 1 != 0
    }

    #[must_use]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// Whether a movement may go to an empty square, capture, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Both,
    Move,
    Capture,
}

impl Mode {
    pub(crate) fn moves(self) -> bool {
        self != Mode::Capture
    }
    pub(crate) fn captures(self) -> bool {
        self != Mode::Move
    }
}

/// One movement of a piece type, ready for each side.
#[derive(Clone, Debug)]
pub struct Movement {
    pub kind: Kind,
    pub mode: Mode,
    /// Offsets `(file, rank)` as the first side sees them (forward = +rank).
    pub offsets: Vec<(i8, i8)>,
    /// At most this many squares along a slide or hop.
    pub range: u8,
    /// Offsets per side: index 1 is the second side's, ranks mirrored.
    pub(crate) sided: [Vec<(i8, i8)>; 2],
    /// The region the piece must stand in for this movement, per side.
    pub(crate) from: Option<[SquareSet; 2]>,
    /// The region the destination must lie in, per side.
    pub(crate) to: Option<[SquareSet; 2]>,
    /// Hops: piece types that cannot serve as the screen (Janggi's cannon
    /// does not jump another cannon, of either side).
    pub not_over: TypeSet,
    /// Piece types this movement cannot capture (Janggi's cannon does not
    /// take a cannon).
    pub not_capture: TypeSet,
    /// Lame leaps: whose pieces block (升级象棋's 悍马: the enemy's only).
    pub blocked_by: Who,
    /// Hops: whose piece may be the screen (铁炮 and 飞车: their own only).
    pub screen: Who,
    /// A conditional power: the movement holds only while the mover's side
    /// has no piece of these types (empty: always).
    pub lacking: TypeSet,
    /// A conditional power: the movement holds only while the mover's
    /// royal piece stands in this region, per side (宫策略).
    pub(crate) royal_on: Option<[SquareSet; 2]>,
}

/// A piece type: its name, FEN letter, whether it is royal (the king), and
/// its movements.
#[derive(Clone, Debug)]
pub struct PieceType {
    pub name: String,
    /// Lower-case FEN letter; the first side's pieces are written upper-case.
    pub letter: char,
    pub royal: bool,
    /// The characters the board shows for it, the first side's and the
    /// second's (`兵`, `卒`), where the file gives them.
    pub glyph: Option<[String; 2]>,
    /// The computer player's worth of it, where the file declares one
    /// (`value = 450`); otherwise it is derived from its mobility
    /// (`computer::Weights`).
    pub value: Option<i32>,
    pub movements: Vec<Movement>,
    /// What it becomes after its first capture (升级象棋: 兵 → 上等兵 …).
    pub promotes_to: Option<usize>,
    /// The piece it is the promotion of; FEN writes it `+` and that
    /// piece's letter (`+P`).
    pub promoted_from: Option<usize>,
}

/// Counting (계가) that scores a game ended by bikjang or by passes, as
/// Fairy-Stockfish's `JANGGI_MATERIAL`: each side's pieces' points, the
/// second side getting `second_bonus` (덤) more; the higher total wins.
#[derive(Clone, Debug, PartialEq)]
pub struct Counting {
    /// Points per piece type, by index in [`Variant::pieces`].
    pub values: Vec<f64>,
    pub second_bonus: f64,
}

/// Revival (还魂, seed 004's 还魂卒): a captured piece of these types goes
/// back to its owner's reserve, and from there the owner may put it on an
/// empty point of `to` as its move (a drop, `P@e3`).
#[derive(Clone, Debug)]
pub struct Revival {
    /// The types that go to the reserve when captured (a promoted form
    /// goes back as its base).
    pub pieces: TypeSet,
    /// Where a revived piece may be put, per side.
    pub(crate) to: [SquareSet; 2],
    /// Only as the side's move right after a move of its own that
    /// captured (“己方吃敌方任何一枚棋后，己方（仅限）下一步可随即还魂”); the
    /// right lapses with that move, revived or not.
    pub after_capture: bool,
}

/// A turn of two moves (seed 004's 杀惊遁马): after a move of `mover`
/// capturing one of `captures` — with `first_move`, only as the game's
/// first move — the other side may answer with two moves in a row, the
/// first by a piece of `first`, the second by a piece of another type; a
/// move by a piece not of `first` is a turn of one move. A first move that
/// gives check ends the turn, since a check must be answered
/// (被“将军”的一方必须立即“应将”).
#[derive(Clone, Debug)]
pub struct DoubleMove {
    pub mover: usize,
    pub captures: TypeSet,
    pub first_move: bool,
    pub first: TypeSet,
}

/// Flags on a ring of points round the board (seed 004's 解将旗), off the
/// board's geometry (“它与棋盘无地域关系”): each side's flag starts at its
/// point and only goes forward round the ring (counter-clockwise, as Red
/// sees the board). A side in check may first step its flag one point
/// (`~`, keeping the turn) and then answer the check; a flag landing on
/// the other flag takes it and wins; a side not in check whose flag has
/// the other flag right behind it may run two points as its move (`~~`).
#[derive(Clone, Debug)]
pub struct FlagRing {
    /// How many points the ring has (42 round Xiangqi's board).
    pub points: u8,
    /// Each side's flag's start, first side first.
    pub start: [u8; 2],
}

/// How a position on the board again ends the game (`[[rules.repetition]]`):
/// the `count`-th time (3: Xiangqi's 三次, rule 4.2.3) ends it; a side that
/// gave check with every one of its moves since the position's previous
/// time, while the other did not (perpetual check, 长将), then gets
/// `perpetual_check`; any other repetition is a draw (不变作和).
///
/// The default is the simple rule set (3, perpetual check loses). 解将旗
/// (seed 004, 3) asks for `perpetual_check = "draw"`: the flag is
/// “可以解除象棋禁止‘长将…’规则的规则” and with it “红方被迫长将也不犯规” — a
/// side checked forever may step its flag each time and so change the
/// position (the flags are part of [`crate::Position::key`]); one that
/// lets the position come back has chosen the draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// The how-many-th time on the board ends the game (2 … 10).
    pub count: u8,
    /// What a perpetual check is worth to the checking side: a loss or a
    /// draw (never a win).
    pub perpetual_check: EndValue,
}

impl Default for Repetition {
    /// The simple rule set: the third time ends it, 长将 loses.
    fn default() -> Self {
        Repetition {
            count: 3,
            perpetual_check: EndValue::Loss,
        }
    }
}

/// How many royal pieces a side has, and when they are in check
/// (`[rules] royals`). Fairy-Stockfish's two readings of several kings:
/// `any` keeps every royal safe — a side is in check when any of its
/// royals is attacked, and a move that leaves one attacked is illegal
/// (as every king of a variant without `dupleCheck`); `all` is its
/// `dupleCheck` (Spartan chess's two kings) — a side is in check only
/// when all its royals are attacked, so it may leave one en prise and
/// lose it, but never the last.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Royals {
    /// Exactly one royal piece a side (Xiangqi's 帅 and 将): the default.
    #[default]
    One,
    /// One or more a side; check when any is attacked.
    Any,
    /// One or more a side; check when all are attacked.
    All,
}

/// What an ending is worth to the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndValue {
    Loss,
    Draw,
    Win,
}

/// A variant: board, regions, pieces, start position and end rules. Only
/// [`Variant::from_toml`] makes one, so its tables always agree.
#[derive(Clone, Debug)]
pub struct Variant {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) files: u8,
    pub(crate) ranks: u8,
    pub(crate) pieces: Vec<PieceType>,
    pub(crate) start_fen: String,
    /// Kings may not face each other on an open file (将帅不准在同一直线上直接对面).
    pub(crate) flying_general: bool,
    pub(crate) checkmate: EndValue,
    /// In Xiangqi the side without a move loses (困毙, rules 3.2 and 4.1.3).
    pub(crate) stalemate: EndValue,
    /// A side may pass (Janggi's 한수쉼), written as its royal square twice
    /// (`e1e1`, as Fairy-Stockfish writes it); never while in check, except
    /// in bikjang. Two passes in a row end the game.
    pub(crate) pass: bool,
    /// Janggi's bikjang (빅장): kings may face each other, but the side
    /// facing them must break it or pass, and a pass then ends the game.
    pub(crate) bikjang: bool,
    /// How a game ended by bikjang or by two passes is scored; a draw where
    /// the variant has no counting.
    pub(crate) counting: Option<Counting>,
    /// The file's named regions, per side (the board renderer draws the
    /// `palace` and the river above `own_half`).
    pub(crate) regions: std::collections::BTreeMap<String, [SquareSet; 2]>,
    /// The house rules (降和偏方) switched on.
    pub(crate) house_rules: Vec<String>,
    /// How a repeated position ends the game.
    pub(crate) repetition: Repetition,
    /// How many royal pieces a side has and when they are in check.
    pub(crate) royals: Royals,
    /// Revivals from a reserve (drops), where the file has them switched on.
    pub(crate) revivals: Vec<Revival>,
    /// The turn of two moves, where the file has it switched on.
    pub(crate) double_move: Option<DoubleMove>,
    /// 宫廷炮: the hoppers that may strike the other royal over their own
    /// royal, the royals facing (empty: none may).
    pub(crate) royal_screen: TypeSet,
    /// Whether the royal piece has a slide or hop that captures (宫策略's
    /// 可飞将): facing the other royal is then no danger to a side whose
    /// royal strikes it.
    pub(crate) royal_flies: bool,
    /// 解将旗: the flags' ring, where the file has it switched on.
    pub(crate) flags: Option<FlagRing>,
    /// Whether some movement is conditional (`while_lacking`): positions
    /// then count each side's pieces by type, and a capture, which may
    /// give the other side a power, is always tested in full.
    pub(crate) conditional: bool,
    /// The computer player's evaluation tables, derived from the pieces
    /// the first time a search needs them (`computer::Weights::of`).
    pub(crate) weights: std::sync::OnceLock<std::sync::Arc<crate::computer::Weights>>,
    /// Attack probes per attacking side (`build_probes`).
    pub(crate) probes: [Vec<Probe>; 2],
    /// The same probes, leaps apart and slides and hops grouped by ray, so
    /// that a check test walks each ray once (the rook's and the cannon's
    /// rays are the same four).
    pub(crate) leaps: [Vec<Probe>; 2],
    pub(crate) rays: [Vec<Ray>; 2],
    /// Per defending side and royal square: every square whose contents can
    /// change whether that square is attacked (the probes' paths, attackers
    /// and legs, and the file where kings may face). A move touching none of
    /// them leaves a royal piece that is not in check out of check.
    pub(crate) zones: [Vec<SquareSet>; 2],
    /// The zones' parts: the leaps' squares per royal square, and each
    /// ray's squares (`rays` order) per royal square, so that a move in the
    /// zone re-tests only the probes it can change.
    pub(crate) leap_zones: [Vec<SquareSet>; 2],
    pub(crate) ray_zones: [Vec<SquareSet>; 2],
}

impl Variant {
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file's free-text description.
    #[must_use]
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The board's width (files `a`..) and height (ranks `0`..).
    #[must_use]
    pub fn size(&self) -> (u8, u8) {
        (self.files, self.ranks)
    }

    /// The piece types; a position names a piece by its index here.
    #[must_use]
    pub fn pieces(&self) -> &[PieceType] {
        &self.pieces
    }

    #[must_use]
    pub fn start_fen(&self) -> &str {
        &self.start_fen
    }

    /// Kings may not face each other on an open file (将帅不准在同一直线上直接对面).
    #[must_use]
    pub fn flying_general(&self) -> bool {
        self.flying_general
    }

    /// What a checkmate is worth to the side to move.
    #[must_use]
    pub fn checkmate(&self) -> EndValue {
        self.checkmate
    }

    /// What a stalemate (困毙) is worth to the side to move.
    #[must_use]
    pub fn stalemate(&self) -> EndValue {
        self.stalemate
    }

    /// Whether a side may pass (Janggi).
    #[must_use]
    pub fn pass(&self) -> bool {
        self.pass
    }

    /// Whether Janggi's bikjang rule holds (kings may face; see [`Variant`]).
    #[must_use]
    pub fn bikjang(&self) -> bool {
        self.bikjang
    }

    /// The house rules (降和偏方) the file switches on.
    #[must_use]
    pub fn house_rules(&self) -> &[String] {
        &self.house_rules
    }

    /// The revivals from a reserve (drops) in force.
    #[must_use]
    pub fn revivals(&self) -> &[Revival] {
        &self.revivals
    }

    /// The revival that takes a captured piece of type `piece` back to
    /// its owner's reserve, and the type it goes back as (a promoted
    /// form's base).
    pub(crate) fn revival_of(&self, piece: usize) -> Option<(usize, &Revival)> {
        let base = self.pieces[piece].promoted_from.unwrap_or(piece);
        self.revivals
            .iter()
            .find(|r| r.pieces.contains(base))
            .map(|r| (base, r))
    }

    /// How many royal pieces a side has, and when they are in check.
    #[must_use]
    pub fn royals(&self) -> Royals {
        self.royals
    }

    /// The repetition rule in force (the simple rule set unless the file
    /// chooses another).
    #[must_use]
    pub fn repetition(&self) -> Repetition {
        self.repetition
    }

    /// The flags' ring in force (解将旗), if any.
    #[must_use]
    pub fn flags(&self) -> Option<&FlagRing> {
        self.flags.as_ref()
    }

    /// The turn of two moves in force, if any.
    #[must_use]
    pub fn double_move(&self) -> Option<&DoubleMove> {
        self.double_move.as_ref()
    }

    /// How a game ended by bikjang or passes is scored.
    #[must_use]
    pub fn counting(&self) -> Option<&Counting> {
        self.counting.as_ref()
    }

    /// The squares of the region `name` as the first side sees it (the
    /// second side's is its mirror), in board order; `None` if the file
    /// defines no such region.
    #[must_use]
    pub fn region(&self, name: &str) -> Option<Vec<Square>> {
        let set = self.regions.get(name)?[0];
        Some(
            (0..self.ranks)
                .flat_map(|r| (0..self.files).map(move |f| Square::new(f, r)))
                .filter(|sq| set.contains(sq.0))
                .collect(),
        )
    }

    /// Whether `(file, rank)` lies on the board.
    #[inline]
    pub(crate) fn on_board(&self, file: i16, rank: i16) -> bool {
        (0..i16::from(self.files)).contains(&file) && (0..i16::from(self.ranks)).contains(&rank)
    }

    /// The square `d` away from `sq`, if it is on the board.
    #[inline]
    pub(crate) fn offset(&self, sq: u8, d: (i8, i8)) -> Option<u8> {
        let f = i16::from(sq % STRIDE) + i16::from(d.0);
        let r = i16::from(sq / STRIDE) + i16::from(d.1);
        self.on_board(f, r).then(|| (r as u8) * STRIDE + f as u8)
    }

    /// The piece type written `letter` (either case), by index.
    #[must_use]
    pub fn piece_by_letter(&self, letter: char) -> Option<usize> {
        let l = letter.to_ascii_lowercase();
        self.pieces
            .iter()
            .position(|p| p.letter == l && p.promoted_from.is_none())
    }

    /// Piece code on the board: 0 is empty, else `1 + 2 × type + side`.
    #[inline]
    pub(crate) fn code(piece: usize, side: Side) -> u8 {
        (1 + 2 * piece + side.index()) as u8
    }

    /// Builds the attack probes: each capturing movement looked at from the
    /// attacked square backwards, so that "is this square attacked" needs no
    /// move generation of the attacker.
    pub(crate) fn build_probes(&mut self) {
        for side in Side::BOTH {
            let mut probes = Vec::new();
            for (t, piece) in self.pieces.iter().enumerate() {
                for m in piece.movements.iter().filter(|m| m.mode.captures()) {
                    for &o in &m.sided[side.index()] {
                        probes.push(Probe {
                            code: Variant::code(t, side),
                            kind: m.kind,
                            back: (-o.0, -o.1),
                            legs: lame_legs(m.kind, o).collect(),
                            not_over: m.not_over,
                            not_capture: m.not_capture,
                            blocked_by: m.blocked_by,
                            screen: m.screen,
                            lacking: m.lacking,
                            royal_on: m.royal_on.map(|r| r[side.index()]),
                            range: m.range,
                            from: m.from.map(|r| r[side.index()]),
                            to: m.to.map(|r| r[side.index()]),
                        });
                    }
                }
            }
            let mut leaps = Vec::new();
            let mut rays: Vec<Ray> = Vec::new();
            for p in &probes {
                if matches!(p.kind, Kind::Leap { .. }) {
                    leaps.push(p.clone());
                    continue;
                }
                let ray = match rays.iter_mut().position(|r| r.back == p.back) {
                    Some(i) => &mut rays[i],
                    None => {
                        rays.push(Ray {
                            back: p.back,
                            range: 0,
                            slides: Vec::new(),
                            hops: Vec::new(),
                        });
                        rays.last_mut().expect("just pushed")
                    }
                };
                ray.range = ray.range.max(p.range);
                if p.kind == Kind::Slide {
                    ray.slides.push(p.clone());
                } else {
                    ray.hops.push(p.clone());
                }
            }
            self.leaps[side.index()] = leaps;
            self.rays[side.index()] = rays;
            self.probes[side.index()] = probes;
        }
        for defender in Side::BOTH {
            let by = defender.other().index();
            let nrays = self.rays[by].len();
            let mut zones = vec![SquareSet::default(); 256];
            let mut leap_zones = vec![SquareSet::default(); 256];
            let mut ray_zones = vec![SquareSet::default(); 256 * nrays];
            for rank in 0..self.ranks {
                for file in 0..self.files {
                    let k = Square::new(file, rank).0;
                    let leap_zone = &mut leap_zones[usize::from(k)];
                    for p in &self.leaps[by] {
                        if p.to.is_some_and(|r| !r.contains(k)) {
                            continue;
                        }
                        let Some(a) = self.offset(k, p.back) else { continue };
                        leap_zone.insert(Square(a));
                        for &leg in &p.legs {
                            if let Some(l) = self.offset(a, leg) {
                                leap_zone.insert(Square(l));
                            }
                        }
                    }
                    let mut zone = *leap_zone;
                    for (i, ray) in self.rays[by].iter().enumerate() {
                        let ray_zone = &mut ray_zones[usize::from(k) * nrays + i];
                        let mut cur = k;
                        for _ in 0..ray.range {
                            let Some(next) = self.offset(cur, ray.back) else {
                                break;
                            };
                            cur = next;
                            ray_zone.insert(Square(cur));
                        }
                        zone.union_with(ray_zone);
                    }
                    if self.flying_general {
                        for r in 0..self.ranks {
                            zone.insert(Square::new(file, r));
                        }
                    }
                    zones[usize::from(k)] = zone;
                }
            }
            self.zones[defender.index()] = zones;
            self.leap_zones[defender.index()] = leap_zones;
            self.ray_zones[defender.index()] = ray_zones;
        }
    }
}

/// The squares that block a lame leap by `o`, relative to its start: the
/// path that goes straight along the longer axis first, then diagonally —
/// the horse's leg (马腿) (0, 1) for (1, 2), the elephant's eye (象眼)
/// (1, 1) for (2, 2), and Janggi's elephant's two points (0, 1) and (1, 2)
/// for (2, 3), as Fairy-Stockfish blocks it; with a diagonal leg, the one
/// point (±1, ±1) towards the destination. Nothing for a leap that is not
/// lame or has no square between.
#[inline]
pub(crate) fn lame_legs(kind: Kind, o: (i8, i8)) -> impl Iterator<Item = (i8, i8)> {
    let (ax, ay) = (o.0.abs(), o.1.abs());
    let (sx, sy) = (o.0.signum(), o.1.signum());
    let diagonal = ax.min(ay);
    let straight = ax.max(ay) - diagonal;
    let diagonal_leg = matches!(
        kind,
        Kind::Leap {
            lame: true,
            diagonal: true
        }
    ) && diagonal > 0;
    let steps = if diagonal_leg {
        2
    } else if matches!(kind, Kind::Leap { lame: true, .. }) {
        straight + diagonal
    } else {
        0
    };
    (1..steps).map(move |i| {
        if diagonal_leg {
            return (sx, sy);
        }
        let (along, across) = if i <= straight { (i, 0) } else { (i, i - straight) };
        if ax > ay {
            (sx * along, sy * across)
        } else {
            (sx * across, sy * along)
        }
    })
}

/// The slide and hop probes along one direction: a walk from the attacked
/// square finds the first piece (a slider's place) and the second (a
/// hopper's, over the first as its screen).
#[derive(Clone, Debug)]
pub(crate) struct Ray {
    pub(crate) back: (i8, i8),
    /// The longest range of its probes: how far the walk goes.
    pub(crate) range: u8,
    pub(crate) slides: Vec<Probe>,
    pub(crate) hops: Vec<Probe>,
}

/// One way a piece of one side can capture on a square, seen from that
/// square: the attacker stands `back` away (repeated for slides and hops).
#[derive(Clone, Debug)]
pub(crate) struct Probe {
    pub(crate) code: u8,
    pub(crate) kind: Kind,
    pub(crate) back: (i8, i8),
    /// Legs of a lame leap, relative to the attacker (`lame_legs`).
    pub(crate) legs: Vec<(i8, i8)>,
    /// A hopper's forbidden screens and the types it cannot capture.
    pub(crate) not_over: TypeSet,
    pub(crate) not_capture: TypeSet,
    pub(crate) blocked_by: Who,
    pub(crate) screen: Who,
    /// Conditional: holds only while the attacker's side lacks these.
    pub(crate) lacking: TypeSet,
    /// Conditional: holds only while the attacker's royal stands here.
    pub(crate) royal_on: Option<SquareSet>,
    pub(crate) range: u8,
    pub(crate) from: Option<SquareSet>,
    pub(crate) to: Option<SquareSet>,
}
