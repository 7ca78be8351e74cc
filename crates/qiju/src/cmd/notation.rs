//! `qiju notation`: writes one move of a position in ICCS, WXF or Chinese.
//! The move may be given in any of them (read with `parse_any`), so this
//! also converts between notations.

use clap::{Args as ClapArgs, ValueEnum};
use xiangqi::notation::{format_chinese_short, format_move, parse_any, Notation};

#[derive(Clone, Copy, ValueEnum)]
enum Style {
    /// ICCS coordinates: h2e2.
    Iccs,
    /// WXF: C2=5.
    Wxf,
    /// Chinese, full form: 炮二平五 / 马８进７.
    Chinese,
    /// Chinese, short form of the CXA rules (7.5): 炮25 / 马8+7.
    ChineseShort,
}

#[derive(ClapArgs)]
pub struct Args {
    /// Position as FEN, or `startpos`.
    #[arg(long, default_value = "startpos")]
    fen: String,
    /// The move, in any notation: h2e2, C2=5, 炮二平五, 炮25.
    #[arg(long = "move")]
    mv: String,
    /// Notation to print the move in.
    #[arg(long, value_enum, default_value = "wxf")]
    style: Style,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let pos = super::position(&a.fen)?;
    // The error already quotes the move text.
    let m = parse_any(&pos, &a.mv)?;
    let text = match a.style {
        Style::Iccs => format_move(&pos, m, Notation::Iccs),
        Style::Wxf => format_move(&pos, m, Notation::Wxf),
        Style::Chinese => format_move(&pos, m, Notation::Chinese),
        Style::ChineseShort => format_chinese_short(&pos, m),
    };
    println!("{text}");
    Ok(())
}
