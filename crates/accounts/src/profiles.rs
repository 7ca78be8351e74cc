//! The public side of an account: a player as others see them, the player
//! search, the leaderboards, a player's record and rating history.

use crate::Accounts;
use common::Error;
use serde::Serialize;
use store::{PlayerResult, PoolRating, RatingPoint, User};
use utoipa::ToSchema;

/// A player as others see them.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct UserView {
    pub id: String,
    pub name: String,
    pub guest: bool,
    /// Rating and rated games in the pool of titles (Xiangqi's, the default
    /// game's); every pool is in `ratings`.
    pub rating: f64,
    pub rated_games: u32,
    /// The rating pool of `rating` (the default game's, `xiangqi`).
    pub pool: String,
    /// `rating` rests on too few games yet (see
    /// `rating::RatingSystem::is_provisional`): shown with "?", and the
    /// player is not on that pool's leaderboard.
    pub provisional: bool,
    /// Rating title, e.g. 五级棋士; `null` = 无称号 (no title yet).
    pub title: Option<String>,
    /// Rated games against titled players (20 needed for a title).
    pub titled_games: u32,
    /// Real-world title, shown separately (国家大师 …).
    pub real_title: Option<String>,
    /// The player's rating in each pool they have played rated games in.
    pub ratings: Vec<PoolRatingView>,
}

/// A rating in one pool.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct PoolRatingView {
    /// `xiangqi`, `chess`, `chess960`.
    pub pool: String,
    pub rating: f64,
    pub rated_games: u32,
    /// Too few games yet: marked, and off the leaderboard.
    pub provisional: bool,
}

/// A player's rating title (seed 003) from their rating in the pool of
/// titles, in Chinese; an awarded title (特级大师 …) stands whatever the
/// rating.
#[must_use]
pub fn title_of(u: &User, r: &PoolRating) -> Option<String> {
    let awarded = u.awarded_title.as_deref().and_then(|t| t.parse().ok());
    rating::title(r.rating.rating, r.titled_games, awarded).map(|t| t.chinese().to_string())
}

impl UserView {
    /// The view of `u` with their ratings in every pool.
    #[must_use]
    pub fn of(u: &User, ratings: &[PoolRating], system: rating::RatingSystem) -> UserView {
        let real: Option<rating::RealTitle> = u.real_title.as_deref().and_then(|t| t.parse().ok());
        let title_pool = registry::get(None).map_or("xiangqi", |v| v.rating_pool);
        let titled = ratings
            .iter()
            .find(|r| r.pool == title_pool)
            .cloned()
            .unwrap_or(PoolRating {
                pool: title_pool.to_string(),
                rating: rating::PlayerRating::default(),
                titled_games: 0,
            });
        UserView {
            id: u.id.clone(),
            name: u.name.clone(),
            guest: u.guest,
            rating: titled.rating.rating.round(),
            rated_games: titled.rating.games,
            pool: titled.pool.clone(),
            provisional: system.is_provisional(&titled.rating),
            title: title_of(u, &titled),
            titled_games: titled.titled_games,
            real_title: real.map(|t| t.chinese().to_string()),
            ratings: ratings
                .iter()
                .map(|r| PoolRatingView {
                    pool: r.pool.clone(),
                    rating: r.rating.rating.round(),
                    rated_games: r.rating.games,
                    provisional: system.is_provisional(&r.rating),
                })
                .collect(),
        }
    }
}

/// One row of a leaderboard.
#[derive(Serialize, ToSchema)]
pub struct LeaderRow {
    pub rank: u32,
    pub name: String,
    pub rating: f64,
    pub rated_games: u32,
    /// The rating title (seed 003), in pools that have titles.
    pub title: Option<String>,
}

/// Rows on one page of a leaderboard.
const LEADERBOARD_PAGE: u32 = 50;
/// Pages a leaderboard goes to: deeper than this a rank is better read on
/// the player's profile, and the query stays cheap.
pub const LEADERBOARD_PAGES: u32 = 20;

/// Wins, draws and losses.
#[derive(Serialize, ToSchema, Default, Clone, Copy)]
pub struct Score {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Score {
    fn add(&mut self, result: PlayerResult) {
        match result {
            PlayerResult::Win => self.wins += 1,
            PlayerResult::Draw => self.draws += 1,
            PlayerResult::Loss => self.losses += 1,
        }
    }
}

/// A player's finished games counted.
#[derive(Serialize, ToSchema)]
pub struct Record {
    /// Per rating pool, rated and casual games together.
    pub pools: Vec<PoolScore>,
    /// Against the player named in `vs`, all games.
    pub vs: Option<Score>,
}

#[derive(Serialize, ToSchema)]
pub struct PoolScore {
    pub pool: String,
    #[serde(flatten)]
    pub score: Score,
}

impl Accounts {
    /// The view of `u`, reading their ratings.
    ///
    /// # Errors
    /// The database cannot be read.
    pub async fn view(&self, u: &User) -> Result<UserView, Error> {
        Ok(UserView::of(
            u,
            &self.store.ratings_of(&u.id).await?,
            self.rating_system,
        ))
    }

    /// The player of that name (compared as names are), or "not found".
    ///
    /// # Errors
    /// `not_found`, or storage.
    pub async fn named(&self, name: &str) -> Result<User, Error> {
        self.store
            .user_by_name(name)
            .await?
            .ok_or_else(|| Error::NotFound(format!("player {name}")))
    }

    /// Registered players whose name starts with `q` (at most 20).
    ///
    /// # Errors
    /// Storage.
    pub async fn search(&self, q: &str) -> Result<Vec<UserView>, Error> {
        let q = q.trim();
        if q.is_empty() || q.chars().count() > 20 {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for u in self.store.search_users(q, 20).await? {
            out.push(self.view(&u).await?);
        }
        Ok(out)
    }

    /// The best-rated players of a rating pool, 50 a page (1 to 20), with
    /// their titles where the pool has them; a provisional rating is left
    /// off (`rating::RatingSystem::established`). Players of equal rating are
    /// ranked by name, so pages do not overlap.
    ///
    /// # Errors
    /// An unknown pool, a page out of range, or storage.
    pub async fn leaderboard(&self, pool: &str, page: Option<u32>) -> Result<Vec<LeaderRow>, Error> {
        let Some(v) = registry::all().iter().find(|v| v.rating_pool == pool) else {
            return Err(Error::NotFound(format!("rating pool {pool}")));
        };
        let page = page.unwrap_or(1);
        if !(1..=LEADERBOARD_PAGES).contains(&page) {
            return Err(Error::bad(
                "bad_page",
                format!("page must be 1 to {LEADERBOARD_PAGES}"),
            ));
        }
        let skip = (page - 1) * LEADERBOARD_PAGE;
        let rows = self
            .store
            .leaderboard(
                pool,
                i64::from(skip),
                i64::from(LEADERBOARD_PAGE),
                self.rating_system.established(),
            )
            .await?;
        Ok(rows
            .into_iter()
            .zip(skip + 1..)
            .map(|((u, r), rank)| LeaderRow {
                rank,
                title: if v.titles { title_of(&u, &r) } else { None },
                name: u.name,
                rating: r.rating.rating.round(),
                rated_games: r.rating.games,
            })
            .collect())
    }

    /// A player's wins, draws and losses per rating pool, and against one
    /// other player (head to head).
    ///
    /// # Errors
    /// Either player unknown, or storage.
    pub async fn record(&self, name: &str, vs: Option<&str>) -> Result<Record, Error> {
        let u = self.named(name).await?;
        let other = match vs {
            Some(n) => Some(self.named(n).await?),
            None => None,
        };
        let mut pools: std::collections::BTreeMap<String, Score> = std::collections::BTreeMap::new();
        let mut vs = other.as_ref().map(|_| Score::default());
        for g in self.store.games_of(&u.id, i64::MAX).await? {
            let Some(result) = g.result_for(&u.id) else {
                continue;
            };
            let pool = registry::get(Some(&g.variant))
                .map_or_else(|_| g.variant.clone(), |v| v.rating_pool.to_string());
            pools.entry(pool).or_default().add(result);
            if let (Some(o), Some(score)) = (&other, vs.as_mut()) {
                if g.opponent_of(&u.id) == Some(o.id.as_str()) {
                    score.add(result);
                }
            }
        }
        Ok(Record {
            pools: pools
                .into_iter()
                .map(|(pool, score)| PoolScore { pool, score })
                .collect(),
            vs,
        })
    }

    /// A player's rating history, one point per rated game.
    ///
    /// # Errors
    /// An unknown player, or storage.
    pub async fn rating_history(&self, name: &str) -> Result<Vec<RatingPoint>, Error> {
        let u = self.named(name).await?;
        Ok(self.store.rating_history(&u.id).await?)
    }
}
