//! Match statistics: Elo difference with a 95% error bar, likelihood of
//! superiority, and the sequential probability ratio test (SPRT) that
//! engine testers use to stop a match once it has decided between two Elo
//! hypotheses.
//!
//! The formulas are the usual trinomial ones (as cutechess-cli prints them);
//! the SPRT is the generalised SPRT of Michel Van den Bergh with the
//! logistic Elo model.

/// Wins, losses and draws of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// Score fraction → Elo difference.
#[must_use]
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if s >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Elo difference → expected score.
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn erf(x: f64) -> f64 {
    // Abramowitz–Stegun 7.1.26; |error| < 1.5e-7, plenty for a LOS.
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

impl Tally {
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Score fraction of the first engine.
    #[must_use]
    pub fn score(&self) -> f64 {
        let n = f64::from(self.games());
        if n == 0.0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n
    }

    /// Per-game variance of the score.
    fn variance(&self) -> f64 {
        let n = f64::from(self.games());
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n
    }

    /// Elo difference and the half-width of its 95% confidence interval.
    #[must_use]
    pub fn elo(&self) -> (f64, f64) {
        let n = f64::from(self.games());
        let s = self.score();
        let elo = elo_from_score(s);
        if n == 0.0 {
            return (0.0, f64::INFINITY);
        }
        if !elo.is_finite() {
            return (elo, f64::INFINITY);
        }
        let sd = (self.variance() / n).sqrt();
        let lo = elo_from_score((s - 1.959_964 * sd).max(1e-9));
        let hi = elo_from_score((s + 1.959_964 * sd).min(1.0 - 1e-9));
        (elo, (hi - lo) / 2.0)
    }

    /// Likelihood of superiority: the probability that the first engine is
    /// the stronger, from wins and losses.
    #[must_use]
    pub fn los(&self) -> f64 {
        let (w, l) = (f64::from(self.wins), f64::from(self.losses));
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// An SPRT between H0: Elo = `elo0` and H1: Elo = `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the SPRT says now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// H1 accepted: the first engine is at least `elo1` stronger.
    H1,
    /// H0 accepted.
    H0,
}

impl Sprt {
    /// The log-likelihood ratio so far.
    #[must_use]
    pub fn llr(&self, t: &Tally) -> f64 {
        let n = f64::from(t.games());
        if n == 0.0 || t.wins + t.losses == 0 {
            return 0.0;
        }
        let var = t.variance();
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * t.score() - s0 - s1) / (2.0 * var)
    }

    /// (lower, upper) decision bounds.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    #[must_use]
    pub fn state(&self, t: &Tally) -> SprtState {
        let llr = self.llr(t);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::H1
        } else if llr <= lo {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!((elo_from_score(0.5)).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 190.848).abs() < 0.01);
        assert!((score_from_elo(elo_from_score(0.3)) - 0.3).abs() < 1e-12);
        let t = Tally {
            wins: 60,
            losses: 20,
            draws: 20,
        };
        let (elo, err) = t.elo();
        // 70% → +147.2 Elo; error bar of a 100-game match is wide.
        assert!((elo - 147.19).abs() < 0.1, "{elo}");
        assert!(err > 40.0 && err < 90.0, "{err}");
        assert!(t.los() > 0.99);
        let even = Tally {
            wins: 10,
            losses: 10,
            draws: 5,
        };
        assert!((even.los() - 0.5).abs() < 1e-9);
    }

    #[test]
    fn sprt_decides() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = sprt.bounds();
        assert!((hi - 2.944).abs() < 0.001 && (lo + 2.944).abs() < 0.001);
        let strong = Tally {
            wins: 600,
            losses: 300,
            draws: 100,
        };
        assert_eq!(sprt.state(&strong), SprtState::H1);
        let weak = Tally {
            wins: 300,
            losses: 600,
            draws: 100,
        };
        assert_eq!(sprt.state(&weak), SprtState::H0);
        let few = Tally {
            wins: 3,
            losses: 2,
            draws: 1,
        };
        assert_eq!(sprt.state(&few), SprtState::Continue);
        assert_eq!(sprt.llr(&Tally::default()), 0.0);
    }
}
