//! `qiju tournament berger --players N [--double]`: the FIDE Berger table
//! (C.05 Annex 1) an arbiter reads the pairings of a round robin from.

use tournament::roundrobin::{berger_table, Board, Cycles};

#[derive(clap::Args)]
pub struct Args {
    /// Number of players (an odd field gets a bye against the phantom).
    #[arg(long)]
    players: u32,
    /// Double round robin: the last two rounds of the first cycle swapped
    /// (FIDE's recommendation), then the table again with colours reversed.
    #[arg(long)]
    double: bool,
}

/// One line per board, `ROUND WHITE BLACK` in board order; `ROUND P 0` for
/// the player who sits out.
pub fn run(a: Args) -> anyhow::Result<()> {
    let cycles = if a.double { Cycles::Double } else { Cycles::Single };
    let table = berger_table(a.players, cycles)?;
    let mut out = String::new();
    for (r, round) in table.iter().enumerate() {
        for b in round {
            let (white, black) = match *b {
                Board::Game { white, black } => (white, black),
                Board::Bye { player } => (player, 0),
            };
            out.push_str(&format!("{} {white} {black}\n", r + 1));
        }
    }
    print!("{out}");
    Ok(())
}
