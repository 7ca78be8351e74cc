//! Player ratings and titles, as seed 003 describes them (SPEC section 4).
//!
//! Pure arithmetic with no I/O: the server stores a [`PlayerRating`] per
//! player, calls [`RatingSystem::rate`] when a rated game ends and
//! [`title`] to show a player's title (称号).
//!
//! * Everyone starts at [`NEW_PLAYER_RATING`] = 1400 (五级棋士's band,
//!   新手缺省分数) without a title (无称号).
//! * A rating title is shown only after [`TITLED_GAMES_NEEDED`] = 20 rated
//!   games against players who held a title at the time (和有级别的人下够
//!   20 盘后才会有称号).
//! * 特级大师 and 一级大师 are awarded in the platform's big events, never
//!   reached by rating, and kept once awarded whatever the rating does. A
//!   player whose rating lies in their bands (≥ 2400) without the award shows
//!   二级大师, the highest title a rating alone reaches.
//! * Real-world titles (国际特大, 国家特大, 国际大师, 国家大师) are separate
//!   from rating and shown beside it ([`RealTitle`]).
//!
//! Two systems: Elo (the default) with FIDE's K-factors, and Glicko-2 from
//! the `skillratings` crate as an operator option.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Rating of a new player (新手缺省分数).
pub const NEW_PLAYER_RATING: f64 = 1400.0;
/// Rated games against titled players before a rating title is shown.
pub const TITLED_GAMES_NEEDED: u32 = 20;
/// Glicko-2 deviation of a new player (the Glicko-2 paper's default).
pub const NEW_PLAYER_DEVIATION: f64 = 350.0;
/// Glicko-2 volatility of a new player (the Glicko-2 paper's default).
pub const NEW_PLAYER_VOLATILITY: f64 = 0.06;

/// A title on the platform, from the rating bands of seed 003.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Title {
    /// 九级棋士, below 1100.
    Class9,
    /// 八级棋士, ≥ 1100.
    Class8,
    /// 七级棋士, ≥ 1200.
    Class7,
    /// 六级棋士, ≥ 1300.
    Class6,
    /// 五级棋士, ≥ 1400 (where new players start).
    Class5,
    /// 四级棋士, ≥ 1500.
    Class4,
    /// 三级棋士, ≥ 1600.
    Class3,
    /// 二级棋士, ≥ 1700.
    Class2,
    /// 一级棋士, ≥ 1800.
    Class1,
    /// 三级大师, ≥ 2000.
    ThirdMaster,
    /// 二级大师, ≥ 2200.
    SecondMaster,
    /// 一级大师, band ≥ 2400, awarded only.
    FirstMaster,
    /// 特级大师, band ≥ 2600, awarded only.
    SpecialGrandmaster,
}

impl Title {
    /// Lower bounds of the bands, highest first (seed 003, 等级分和对应称号).
    const BANDS: [(f64, Title); 12] = [
        (2600.0, Title::SpecialGrandmaster),
        (2400.0, Title::FirstMaster),
        (2200.0, Title::SecondMaster),
        (2000.0, Title::ThirdMaster),
        (1800.0, Title::Class1),
        (1700.0, Title::Class2),
        (1600.0, Title::Class3),
        (1500.0, Title::Class4),
        (1400.0, Title::Class5),
        (1300.0, Title::Class6),
        (1200.0, Title::Class7),
        (1100.0, Title::Class8),
    ];

    /// The band a rating falls in, ignoring every other condition.
    #[must_use]
    pub fn band(rating: f64) -> Title {
        Self::BANDS
            .iter()
            .find(|(low, _)| rating >= *low)
            .map_or(Title::Class9, |&(_, t)| t)
    }

    /// The Chinese name players see.
    #[must_use]
    pub fn chinese(self) -> &'static str {
        match self {
            Title::SpecialGrandmaster => "特级大师",
            Title::FirstMaster => "一级大师",
            Title::SecondMaster => "二级大师",
            Title::ThirdMaster => "三级大师",
            Title::Class1 => "一级棋士",
            Title::Class2 => "二级棋士",
            Title::Class3 => "三级棋士",
            Title::Class4 => "四级棋士",
            Title::Class5 => "五级棋士",
            Title::Class6 => "六级棋士",
            Title::Class7 => "七级棋士",
            Title::Class8 => "八级棋士",
            Title::Class9 => "九级棋士",
        }
    }

    /// Whether only an award (never a rating) gives this title.
    #[must_use]
    pub fn is_award_only(self) -> bool {
        matches!(self, Title::SpecialGrandmaster | Title::FirstMaster)
    }
}

impl fmt::Display for Title {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.chinese())
    }
}

/// Titles the platform awards in its big events (seed 003 item 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AwardedTitle {
    /// 特级大师.
    SpecialGrandmaster,
    /// 一级大师.
    FirstMaster,
}

impl AwardedTitle {
    #[must_use]
    pub fn title(self) -> Title {
        match self {
            AwardedTitle::SpecialGrandmaster => Title::SpecialGrandmaster,
            AwardedTitle::FirstMaster => Title::FirstMaster,
        }
    }

    /// The name stored in a database column.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            AwardedTitle::SpecialGrandmaster => "special_grandmaster",
            AwardedTitle::FirstMaster => "first_master",
        }
    }
}

/// Real-world titles a verified player may carry (seed 003 item 4); they say
/// nothing about the rating and are shown beside the rating title.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RealTitle {
    /// 国际特大 (international grandmaster).
    InternationalGrandmaster,
    /// 国家特大 (national grandmaster).
    NationalGrandmaster,
    /// 国际大师 (international master).
    InternationalMaster,
    /// 国家大师 (national master).
    NationalMaster,
}

impl RealTitle {
    #[must_use]
    pub fn chinese(self) -> &'static str {
        match self {
            RealTitle::InternationalGrandmaster => "国际特大",
            RealTitle::NationalGrandmaster => "国家特大",
            RealTitle::InternationalMaster => "国际大师",
            RealTitle::NationalMaster => "国家大师",
        }
    }

    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            RealTitle::InternationalGrandmaster => "international_grandmaster",
            RealTitle::NationalGrandmaster => "national_grandmaster",
            RealTitle::InternationalMaster => "international_master",
            RealTitle::NationalMaster => "national_master",
        }
    }
}

/// A title name that is not one of ours.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown title {0:?}")]
pub struct UnknownTitle(pub String);

impl FromStr for AwardedTitle {
    type Err = UnknownTitle;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "special_grandmaster" | "特级大师" => Ok(AwardedTitle::SpecialGrandmaster),
            "first_master" | "一级大师" => Ok(AwardedTitle::FirstMaster),
            _ => Err(UnknownTitle(s.to_string())),
        }
    }
}

impl FromStr for RealTitle {
    type Err = UnknownTitle;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "international_grandmaster" | "国际特大" => Ok(RealTitle::InternationalGrandmaster),
            "national_grandmaster" | "国家特大" => Ok(RealTitle::NationalGrandmaster),
            "international_master" | "国际大师" => Ok(RealTitle::InternationalMaster),
            "national_master" | "国家大师" => Ok(RealTitle::NationalMaster),
            _ => Err(UnknownTitle(s.to_string())),
        }
    }
}

/// The title a player shows now, or `None` for 无称号.
///
/// `titled_games` counts the player's rated games against opponents who held
/// a title when the game was played. An award wins over everything and is
/// never lost; without one, the rating band is shown once the player has
/// enough games against titled players, capped at 二级大师 because the two
/// highest titles are awarded only.
#[must_use]
pub fn title(rating: f64, titled_games: u32, awarded: Option<AwardedTitle>) -> Option<Title> {
    if let Some(a) = awarded {
        return Some(a.title());
    }
    if titled_games < TITLED_GAMES_NEEDED {
        return None;
    }
    let band = Title::band(rating);
    Some(if band.is_award_only() {
        Title::SecondMaster
    } else {
        band
    })
}

/// A player's rating state. Elo uses `rating` and `games`; Glicko-2 also the
/// deviation and volatility.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played so far.
    pub games: u32,
}

impl Default for PlayerRating {
    fn default() -> Self {
        PlayerRating {
            rating: NEW_PLAYER_RATING,
            deviation: NEW_PLAYER_DEVIATION,
            volatility: NEW_PLAYER_VOLATILITY,
            games: 0,
        }
    }
}

/// The result of a game for the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    #[must_use]
    pub fn points(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }

    #[must_use]
    pub fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}

/// The operator's choice of rating system.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingSystem {
    /// Elo with FIDE's K-factors: 40 for a player's first 30 rated games, then
    /// 20, and 10 once a player has reached 2400. The large early K lets a new
    /// player leave the 1400 start quickly; the small one at the top keeps
    /// masters' ratings stable.
    #[default]
    Elo,
    /// Glicko-2 (Glickman), τ = 0.5, one game per rating period.
    Glicko2,
}

/// Under Glicko-2 a rating is provisional while its deviation is above
/// this (lichess's line, "?" after the rating): it says little yet, so it is
/// marked as such and kept off the leaderboards.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Elo keeps no deviation: there a rating is provisional for a player's
/// first rated games in the pool. Ten is about when a Glicko-2 deviation
/// starting at 350 falls under [`PROVISIONAL_DEVIATION`] against players of
/// like strength, so both systems ask about as much.
pub const PROVISIONAL_GAMES: u32 = 10;

impl RatingSystem {
    /// Whether `r` is still provisional (see [`PROVISIONAL_DEVIATION`],
    /// [`PROVISIONAL_GAMES`]).
    #[must_use]
    pub fn is_provisional(self, r: &PlayerRating) -> bool {
        match self {
            RatingSystem::Glicko2 => r.games == 0 || r.deviation > PROVISIONAL_DEVIATION,
            RatingSystem::Elo => r.games < PROVISIONAL_GAMES,
        }
    }

    /// The least games and the greatest deviation of a rating that is not
    /// provisional: what a leaderboard asks of its rows.
    #[must_use]
    pub fn established(self) -> (u32, f64) {
        match self {
            RatingSystem::Glicko2 => (1, PROVISIONAL_DEVIATION),
            RatingSystem::Elo => (PROVISIONAL_GAMES, f64::MAX),
        }
    }
}

/// A rating system name that is not `elo` or `glicko2`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rating system {0:?} (expected elo or glicko2)")]
pub struct UnknownSystem(pub String);

impl FromStr for RatingSystem {
    type Err = UnknownSystem;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "elo" => Ok(RatingSystem::Elo),
            "glicko2" | "glicko-2" => Ok(RatingSystem::Glicko2),
            _ => Err(UnknownSystem(s.to_string())),
        }
    }
}

/// Elo's expected score of a player rated `a` against one rated `b`.
#[must_use]
pub fn elo_expected(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
}

/// FIDE's K-factor for a player (see [`RatingSystem::Elo`]).
#[must_use]
pub fn elo_k(p: &PlayerRating) -> f64 {
    if p.games < 30 {
        40.0
    } else if p.rating >= 2400.0 {
        10.0
    } else {
        20.0
    }
}

impl RatingSystem {
    /// The ratings of `a` and `b` after a game that `a` scored `score` in.
    #[must_use]
    pub fn rate(self, a: &PlayerRating, b: &PlayerRating, score: Score) -> (PlayerRating, PlayerRating) {
        match self {
            RatingSystem::Elo => {
                let ea = elo_expected(a.rating, b.rating);
                let sa = score.points();
                let na = a.rating + elo_k(a) * (sa - ea);
                let nb = b.rating + elo_k(b) * ((1.0 - sa) - (1.0 - ea));
                (
                    PlayerRating {
                        rating: na,
                        games: a.games + 1,
                        ..*a
                    },
                    PlayerRating {
                        rating: nb,
                        games: b.games + 1,
                        ..*b
                    },
                )
            }
            RatingSystem::Glicko2 => {
                use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
                use skillratings::Outcomes;
                let g = |p: &PlayerRating| Glicko2Rating {
                    rating: p.rating,
                    deviation: p.deviation,
                    volatility: p.volatility,
                };
                let outcome = match score {
                    Score::Win => Outcomes::WIN,
                    Score::Draw => Outcomes::DRAW,
                    Score::Loss => Outcomes::LOSS,
                };
                let (ra, rb) = glicko2(&g(a), &g(b), &outcome, &Glicko2Config::new());
                let back = |r: Glicko2Rating, p: &PlayerRating| PlayerRating {
                    rating: r.rating,
                    deviation: r.deviation,
                    volatility: r.volatility,
                    games: p.games + 1,
                };
                (back(ra, a), back(rb, b))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_match_seed_003() {
        let cases = [
            (2600.0, Title::SpecialGrandmaster),
            (2599.9, Title::FirstMaster),
            (2400.0, Title::FirstMaster),
            (2200.0, Title::SecondMaster),
            (2000.0, Title::ThirdMaster),
            (1999.0, Title::Class1),
            (1800.0, Title::Class1),
            (1700.0, Title::Class2),
            (1600.0, Title::Class3),
            (1500.0, Title::Class4),
            (1400.0, Title::Class5),
            (1399.0, Title::Class6),
            (1300.0, Title::Class6),
            (1200.0, Title::Class7),
            (1100.0, Title::Class8),
            (1099.9, Title::Class9),
            (0.0, Title::Class9),
        ];
        for (r, t) in cases {
            assert_eq!(Title::band(r), t, "rating {r}");
        }
        assert_eq!(Title::Class5.chinese(), "五级棋士");
    }

    #[test]
    fn no_title_before_twenty_titled_games() {
        assert_eq!(title(NEW_PLAYER_RATING, 0, None), None);
        assert_eq!(title(2100.0, 19, None), None);
        assert_eq!(title(2100.0, 20, None), Some(Title::ThirdMaster));
        assert_eq!(title(NEW_PLAYER_RATING, 20, None), Some(Title::Class5));
    }

    #[test]
    fn top_titles_are_awarded_only_and_kept() {
        // A rating alone never gives 一级大师 or 特级大师.
        assert_eq!(title(2700.0, 500, None), Some(Title::SecondMaster));
        // An award is kept whatever the rating and game count.
        assert_eq!(
            title(1000.0, 0, Some(AwardedTitle::SpecialGrandmaster)),
            Some(Title::SpecialGrandmaster)
        );
        assert_eq!(
            title(1900.0, 3, Some(AwardedTitle::FirstMaster)),
            Some(Title::FirstMaster)
        );
    }

    #[test]
    fn titles_parse_from_names() {
        assert_eq!("一级大师".parse::<AwardedTitle>(), Ok(AwardedTitle::FirstMaster));
        assert_eq!("国家大师".parse::<RealTitle>(), Ok(RealTitle::NationalMaster));
        assert!("grandpa".parse::<RealTitle>().is_err());
        assert_eq!("Glicko2".parse::<RatingSystem>(), Ok(RatingSystem::Glicko2));
        assert!("trueskill".parse::<RatingSystem>().is_err());
    }

    #[test]
    fn elo_is_zero_sum_between_equal_k() {
        let a = PlayerRating::default();
        let b = PlayerRating {
            rating: 1600.0,
            ..PlayerRating::default()
        };
        let (na, nb) = RatingSystem::Elo.rate(&a, &b, Score::Win);
        assert!((na.rating - a.rating + nb.rating - b.rating).abs() < 1e-9);
        // Expected score of the 200-point underdog is 0.2403 (the Elo table).
        assert!((elo_expected(1400.0, 1600.0) - 0.240_253).abs() < 1e-5);
        assert!((na.rating - (1400.0 + 40.0 * (1.0 - 0.240_253_07))).abs() < 1e-3);
        assert_eq!(na.games, 1);
        assert_eq!(nb.games, 1);
    }

    #[test]
    fn elo_k_follows_fide() {
        let mut p = PlayerRating::default();
        assert_eq!(elo_k(&p), 40.0);
        p.games = 30;
        assert_eq!(elo_k(&p), 20.0);
        p.rating = 2450.0;
        assert_eq!(elo_k(&p), 10.0);
    }

    #[test]
    fn draw_between_equals_changes_nothing() {
        let a = PlayerRating::default();
        let (na, nb) = RatingSystem::Elo.rate(&a, &a, Score::Draw);
        assert_eq!(na.rating, a.rating);
        assert_eq!(nb.rating, a.rating);
    }

    #[test]
    fn glicko2_moves_winner_up_and_shrinks_deviation() {
        let a = PlayerRating::default();
        let b = PlayerRating::default();
        let (na, nb) = RatingSystem::Glicko2.rate(&a, &b, Score::Win);
        assert!(na.rating > a.rating);
        assert!(nb.rating < b.rating);
        assert!(na.deviation < a.deviation);
        // Glickman's example magnitudes: a win between two fresh 350-RD
        // players moves each by roughly 160 points.
        assert!((na.rating - a.rating - 162.3).abs() < 5.0, "{na:?}");
        assert_eq!(Score::Win.reversed(), Score::Loss);
    }
}
