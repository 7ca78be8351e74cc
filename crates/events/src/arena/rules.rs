//! An arena's rules, pure: how a player's games score and who is paired
//! with whom. lichess's Arena as lila plays it (`modules/tournament`:
//! `arena/Sheet.scala`, `arena/AntmaPairing.scala`), and as its FAQ tells
//! players:
//!
//! * a win scores 2, a draw 1, a loss 0;
//! * after two wins in a row a player is on a streak (the flame): each
//!   following game scores double — a win 4, a draw 2 — until a game that
//!   is not a win, which ends the streak (and scores as above);
//! * a player who went berserk (half their clock, no increment) and wins
//!   scores one point more, when they made at least 7 moves;
//! * a draw before both sides made 10 moves (fewer than 20 plies) scores
//!   nothing, streak or not, and ends a streak (lila's "quick draw");
//! * a draw right after a draw — losses in between do not count, a win
//!   does — scores nothing unless the game lasted 30 moves (60 plies) or
//!   the player is on a streak (lila's `isDrawStreak`, the FAQ's "only the
//!   first draw of consecutive draws gives a point");
//! * a game called off before both moved counts for no one.

/// A draw with fewer plies than this scores nothing (lila: `quickDraw`,
/// a draw in the first 10 moves).
pub const SHORT_DRAW_PLIES: u32 = 20;
/// A draw this long scores even right after another draw (lila:
/// `longGame`, 30 moves in standard chess).
pub const LONG_GAME_PLIES: u32 = 60;
/// A berserk win earns its point only after this many of one's own moves
/// (lila: berserk needs at least 7 moves).
pub const BERSERK_MIN_MOVES: u32 = 7;

/// How a game went for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Res {
    Win,
    Draw,
    Loss,
}

/// One finished game of a player, as their sheet reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub res: Res,
    /// Both sides' moves together.
    pub plies: u32,
    /// Whether the player had the first side (moved first).
    pub first: bool,
    pub berserk: bool,
}

impl Played {
    /// The player's own moves.
    pub fn own_moves(self) -> u32 {
        if self.first {
            self.plies.div_ceil(2)
        } else {
            self.plies / 2
        }
    }
}

/// What one game scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub res: Res,
    pub points: u32,
    /// Scored on a streak (doubled).
    pub double: bool,
    /// The berserk point was earned.
    pub berserk_point: bool,
    /// A draw too short to score.
    pub short_draw: bool,
    /// A draw that scored nothing because the player's last game not lost
    /// was a draw too.
    pub draw_streak: bool,
}

/// A player's games scored in order, and where they stand now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sheet {
    pub scores: Vec<Score>,
    pub points: u32,
    /// On a streak: the next game scores double (the flame).
    pub fire: bool,
}

impl Sheet {
    pub fn wins(&self) -> usize {
        self.scores.iter().filter(|s| s.res == Res::Win).count()
    }
}

/// Scores a player's finished games, in the order they were played.
pub fn sheet(games: &[Played]) -> Sheet {
    let mut out = Sheet::default();
    let mut wins_in_a_row = 0u32;
    // The player's last game that was not a loss.
    let mut last_not_lost = None;
    for g in games {
        let fire = wins_in_a_row >= 2;
        let short_draw = g.res == Res::Draw && g.plies < SHORT_DRAW_PLIES;
        let draw_streak = g.res == Res::Draw
            && !short_draw
            && !fire
            && last_not_lost == Some(Res::Draw)
            && g.plies < LONG_GAME_PLIES;
        let base = match g.res {
            Res::Win => 2,
            Res::Draw if short_draw || draw_streak => 0,
            Res::Draw => 1,
            Res::Loss => 0,
        };
        let berserk_point = g.res == Res::Win && g.berserk && g.own_moves() >= BERSERK_MIN_MOVES;
        let double = fire && base > 0;
        let points = base * if double { 2 } else { 1 } + u32::from(berserk_point);
        wins_in_a_row = if g.res == Res::Win { wins_in_a_row + 1 } else { 0 };
        if g.res != Res::Loss {
            last_not_lost = Some(g.res);
        }
        out.points += points;
        out.scores.push(Score {
            res: g.res,
            points,
            double,
            berserk_point,
            short_draw,
            draw_streak,
        });
    }
    out.fire = wins_in_a_row >= 2;
    out
}

/// A win's or a loss's swing in [`performance`] (lila's `DIFF`).
pub const PERFORMANCE_SWING: i64 = 500;

/// The performance that ranks players of equal points (lila's
/// `Performance`, the linear performance rating of Elo's system): the
/// mean, over a player's finished games, of the opponent's rating, plus
/// [`PERFORMANCE_SWING`] for a win and minus it for a loss. Equal points
/// are ordered by it, and a player with no game yet by their rating
/// (lila's `magicScore`: score, then `performance | rating`). `None`
/// before the first finished game. Rounded to the nearest point, halves
/// away from zero.
pub fn performance(games: impl IntoIterator<Item = (i64, Res)>) -> Option<i64> {
    let (mut sum, mut n) = (0i64, 0i64);
    for (opponent, res) in games {
        sum += opponent
            + match res {
                Res::Win => PERFORMANCE_SWING,
                Res::Draw => 0,
                Res::Loss => -PERFORMANCE_SWING,
            };
        n += 1;
    }
    (n > 0).then(|| (sum as f64 / n as f64).round() as i64)
}

/// A player free to play, as the pairing sees them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub number: u32,
    pub points: u32,
    pub rating: i64,
    /// Whom they played last, to avoid an immediate rematch.
    pub last_opponent: Option<u32>,
    /// Games with the first side less games with the second.
    pub colour_balance: i32,
    /// Whether their last game was with the first side.
    pub last_first: Option<bool>,
}

/// Pairs the players waiting, as lila pairs an arena: by rank (points,
/// then rating), each with the nearest-ranked player who was not their
/// last opponent; a player left without one waits for the next pairing.
/// `rematch_ok` allows an immediate rematch (when only two players are in
/// the arena at all). Returns (first side, second side) boards.
pub fn pair(waiting: &[Waiting], rematch_ok: bool) -> Vec<(u32, u32)> {
    let mut pool: Vec<&Waiting> = waiting.iter().collect();
    pool.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.rating.cmp(&a.rating))
            .then(a.number.cmp(&b.number))
    });
    let mut boards = Vec::new();
    while let Some(p) = (!pool.is_empty()).then(|| pool.remove(0)) {
        let fits = |q: &&Waiting| {
            rematch_ok || (p.last_opponent != Some(q.number) && q.last_opponent != Some(p.number))
        };
        let Some(i) = pool.iter().position(fits) else {
            continue; // p waits
        };
        let q = pool.remove(i);
        boards.push(colours(p, q));
    }
    boards
}

/// The first side to who had it less, then to who had the second side
/// last, then to the higher ranked.
fn colours(p: &Waiting, q: &Waiting) -> (u32, u32) {
    let p_first = match p.colour_balance.cmp(&q.colour_balance) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => !(p.last_first == Some(true) && q.last_first != Some(true)),
    };
    if p_first {
        (p.number, q.number)
    } else {
        (q.number, p.number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(res: Res, plies: u32) -> Played {
        Played {
            res,
            plies,
            first: true,
            berserk: false,
        }
    }

    /// The FAQ's example: two wins and a draw are 2 + 2 + 2×1 = 6.
    #[test]
    fn a_streak_doubles_after_two_wins_until_a_non_win() {
        let s = sheet(&[g(Res::Win, 30), g(Res::Win, 30), g(Res::Draw, 30)]);
        assert_eq!(s.points, 6);
        assert!(!s.fire);
        let s = sheet(&[
            g(Res::Win, 30),
            g(Res::Win, 30),
            g(Res::Win, 30),
            g(Res::Win, 30),
            g(Res::Loss, 30),
            g(Res::Win, 30),
        ]);
        assert_eq!(
            s.scores.iter().map(|x| x.points).collect::<Vec<_>>(),
            [2, 2, 4, 4, 0, 2]
        );
        assert_eq!(s.points, 14);
        let s = sheet(&[g(Res::Win, 30), g(Res::Win, 30)]);
        assert!(s.fire, "the next game scores double");
    }

    #[test]
    fn short_draws_score_nothing_and_end_a_streak() {
        let s = sheet(&[g(Res::Draw, 19), g(Res::Draw, 60)]);
        assert_eq!(s.points, 1);
        assert!(s.scores[0].short_draw);
        let s = sheet(&[g(Res::Win, 30), g(Res::Win, 30), g(Res::Draw, 4), g(Res::Win, 30)]);
        assert_eq!(
            s.scores.iter().map(|x| x.points).collect::<Vec<_>>(),
            [2, 2, 0, 2]
        );
    }

    /// lila's draw streak: after a draw, the next game not lost, if a draw
    /// under 30 moves, scores nothing; a win in between resets it, losses
    /// do not; a long draw and a draw on fire still score.
    #[test]
    fn only_the_first_of_consecutive_draws_scores() {
        let points = |games: &[Played]| sheet(games).scores.iter().map(|x| x.points).collect::<Vec<_>>();
        assert_eq!(points(&[g(Res::Draw, 30), g(Res::Draw, 30)]), [1, 0]);
        assert!(sheet(&[g(Res::Draw, 30), g(Res::Draw, 30)]).scores[1].draw_streak);
        assert_eq!(
            points(&[
                g(Res::Draw, 30),
                g(Res::Loss, 30),
                g(Res::Loss, 40),
                g(Res::Draw, 59)
            ]),
            [1, 0, 0, 0]
        );
        assert_eq!(
            points(&[g(Res::Draw, 30), g(Res::Draw, 60)]),
            [1, 1],
            "a long game"
        );
        assert_eq!(
            points(&[g(Res::Draw, 30), g(Res::Win, 30), g(Res::Draw, 30)]),
            [1, 2, 1]
        );
        assert_eq!(
            points(&[g(Res::Draw, 4), g(Res::Draw, 30)]),
            [0, 0],
            "a quick draw is a draw too"
        );
        assert_eq!(
            points(&[g(Res::Draw, 30), g(Res::Draw, 30), g(Res::Draw, 30)]),
            [1, 0, 0],
            "the streak goes on"
        );
        // On fire the draw is doubled, whatever came before the wins.
        assert_eq!(
            points(&[
                g(Res::Draw, 30),
                g(Res::Win, 30),
                g(Res::Win, 30),
                g(Res::Draw, 30),
                g(Res::Draw, 30)
            ]),
            [1, 2, 2, 2, 0]
        );
        let s = sheet(&[g(Res::Draw, 30), g(Res::Draw, 30), g(Res::Win, 30)]);
        assert!(!s.scores[0].draw_streak && s.scores[1].draw_streak && !s.scores[2].draw_streak);
    }

    #[test]
    fn a_berserk_win_earns_a_point_after_seven_moves() {
        let b = |plies, first| Played {
            res: Res::Win,
            plies,
            first,
            berserk: true,
        };
        assert_eq!(sheet(&[b(13, true)]).points, 3, "seven moves of the first side");
        assert_eq!(sheet(&[b(13, false)]).points, 2, "six of the second");
        assert_eq!(sheet(&[b(14, false)]).points, 3);
        // On a streak: 4 and the point.
        assert_eq!(sheet(&[g(Res::Win, 30), g(Res::Win, 30), b(30, true)]).points, 9);
        let lost = Played {
            res: Res::Loss,
            ..b(30, true)
        };
        assert_eq!(sheet(&[lost]).points, 0);
    }

    #[test]
    fn performance_is_the_mean_of_opponents_ratings_swung_by_results() {
        assert_eq!(performance([]), None);
        // 1500+500, 1700, 1600-500: 4800 / 3.
        assert_eq!(
            performance([(1500, Res::Win), (1700, Res::Draw), (1600, Res::Loss)]),
            Some(1600)
        );
        // 3501 / 2 = 1750.5, rounded away from zero.
        assert_eq!(performance([(1501, Res::Win), (1500, Res::Draw)]), Some(1751));
        assert_eq!(performance([(1400, Res::Loss)]), Some(900));
        assert_eq!(performance([(99, Res::Loss), (100, Res::Loss)]), Some(-401));
    }

    fn w(number: u32, points: u32, last: Option<u32>) -> Waiting {
        Waiting {
            number,
            points,
            rating: 1500,
            last_opponent: last,
            colour_balance: 0,
            last_first: None,
        }
    }

    #[test]
    fn pairs_by_rank_without_an_immediate_rematch() {
        let boards = pair(
            &[w(1, 0, None), w(2, 6, Some(3)), w(3, 5, Some(2)), w(4, 4, None)],
            false,
        );
        // 2 and 3 just met: 2 plays 4, 3 plays 1.
        let sorted: Vec<(u32, u32)> = boards.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        assert_eq!(sorted, [(2, 4), (1, 3)]);
        assert!(
            pair(&[w(1, 0, Some(2)), w(2, 0, Some(1))], false).is_empty(),
            "they wait"
        );
        assert_eq!(pair(&[w(1, 0, Some(2)), w(2, 0, Some(1))], true).len(), 1);
        assert!(pair(&[w(1, 0, None)], false).is_empty());
    }

    #[test]
    fn the_first_side_goes_to_who_had_it_less() {
        let mut a = w(1, 4, None);
        let mut b = w(2, 0, None);
        a.colour_balance = 1;
        assert_eq!(pair(&[a.clone(), b.clone()], false), [(2, 1)]);
        a.colour_balance = 0;
        a.last_first = Some(true);
        b.last_first = Some(false);
        assert_eq!(pair(&[a, b], false), [(2, 1)]);
    }
}
