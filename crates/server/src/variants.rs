//! The games the server can host, by variant name: `xiangqi/<rules>` with the
//! rule sets of the referee (`cxa`, `wxf`, `asian`, `simple`). Other games
//! plug in here as they implement [`game::Game`].

use game::{Game, GameError};

/// The variant a seek or challenge gets when it names none.
pub const DEFAULT_VARIANT: &str = "xiangqi/cxa";

/// A new game of `variant` from `fen` (the standard start when `None`).
pub fn new_game(variant: &str, fen: Option<&str>) -> Result<Box<dyn Game>, GameError> {
    let (family, rules) = variant.split_once('/').unwrap_or((variant, "cxa"));
    match family {
        "xiangqi" => {
            let rules: referee::RuleSet = rules
                .parse()
                .map_err(|_| GameError::UnknownVariant(variant.to_string()))?;
            let g = referee::XiangqiGame::new(fen.unwrap_or("startpos"), rules)?;
            Ok(Box::new(g))
        }
        _ => Err(GameError::UnknownVariant(variant.to_string())),
    }
}

/// The canonical name of a variant (`xiangqi` → `xiangqi/cxa`), or an error.
pub fn canonical(variant: Option<&str>) -> Result<String, GameError> {
    let v = variant.unwrap_or(DEFAULT_VARIANT).trim().to_ascii_lowercase();
    let v = if v.contains('/') { v } else { format!("{v}/cxa") };
    new_game(&v, None)?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_resolve() {
        assert_eq!(canonical(None).unwrap(), "xiangqi/cxa");
        assert_eq!(canonical(Some("xiangqi")).unwrap(), "xiangqi/cxa");
        assert_eq!(canonical(Some("xiangqi/WXF")).unwrap(), "xiangqi/wxf");
        assert!(canonical(Some("xiangqi/nonsense")).is_err());
        assert!(canonical(Some("go")).is_err());
        assert!(new_game("xiangqi/cxa", Some("not a fen")).is_err());
    }
}
