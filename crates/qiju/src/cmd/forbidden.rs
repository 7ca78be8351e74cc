//! `qiju forbidden --game renju --fen POS`: black's forbidden points.

use super::Rules;
use anyhow::Context;
use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// The rule set: `renju` (`renju/rif`) or `renju/office`; gomoku has no
    /// forbidden points.
    #[arg(long, default_value = "renju")]
    game: Rules,
    /// The position: rows 15 (top) down to 1 separated by `/`, each row a to
    /// o with `x` black, `o` white and digits for runs of empty points, then
    /// a space and the side to move (`b` or `w`).
    #[arg(long)]
    fen: String,
}

/// Prints black's forbidden points, whoever is to move, one a line as
/// `<point> <kind>`; the kind is `overline`, `double-four` or
/// `double-three`, the first that applies in that order. Points come in
/// point order: column by column from a, bottom to top within a column
/// (a1 a2 … a15 b1 …). A point where black makes exactly five is not
/// forbidden and not printed. Only the board is read: the side to move must
/// be given but the stone counts are not checked against it.
pub fn run(a: Args) -> anyhow::Result<()> {
    match a.game {
        Rules::Renju(r) if r.has_forbidden_points() => {}
        Rules::Renju(r) => anyhow::bail!("{} has no forbidden points; use --game renju", r.id()),
        _ => anyhow::bail!("forbidden points are renju's: use --game renju"),
    }
    let setup = renju::Setup::from_fen(&a.fen).with_context(|| format!("bad position {:?}", a.fen))?;
    let mut out = String::new();
    for (p, kind) in renju::ForbiddenPoints::of(&setup.board).iter() {
        out.push_str(&format!("{p} {kind}\n"));
    }
    print!("{out}");
    Ok(())
}
