//! `qiju tournament standings FILE.trf --tiebreaks LIST`: the ranking of a
//! tournament in a TRF file with the tie-breaks asked for.

use anyhow::Context;
use tournament::tiebreak::standings::{standings, Rules};
use tournament::tiebreak::{System, Tiebreak, Unplayed};

#[derive(Clone, Copy, clap::ValueEnum)]
enum SystemArg {
    Swiss,
    RoundRobin,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum UnplayedArg {
    /// FIDE C.07 article 16: a dummy opponent on the player's own score.
    Dummy,
    /// FIDE 2009: a virtual opponent; defaults count as draws for others.
    Virtual,
}

#[derive(clap::Args)]
pub struct Args {
    /// The tournament, as a TRF file (TRF-2016/TRF-2026, TRF(x) codes).
    file: std::path::PathBuf,
    /// Tie-breaks in order, comma-separated. FIDE C.07: BH (Buchholz),
    /// BH-C1 (Buchholz Cut-1), SB (Sonneborn–Berger), PS (progressive
    /// score), DE (direct encounter), WIN (rounds won, with or without
    /// play), WON (games won over the board), AROC (average rating of
    /// opponents Cut-1). CXA: SB-CXA (小分 on actual scores), OPP (对手分),
    /// FOUL (犯规, from --fouls). Presets: cxa-rr (15.1:
    /// SB-CXA,WON,DE,FOUL) and cxa-swiss (15.2: OPP,WON,FOUL).
    #[arg(long, default_value = "")]
    tiebreaks: String,
    /// How the event was played: a round robin counts forfeits against the
    /// scheduled opponent and byes for nothing.
    #[arg(long, value_enum, default_value = "swiss")]
    system: SystemArg,
    /// How unplayed rounds count in BH and SB (Swiss).
    #[arg(long, value_enum, default_value = "dummy")]
    unplayed: UnplayedArg,
    /// Places 1..=N may not be shared (CXA 15.6): ties there are listed as
    /// needing a play-off instead.
    #[arg(long, default_value_t = 0)]
    playoff_places: u32,
    /// Fouls (犯规) per player for FOUL, as `ID=N,ID=N`.
    #[arg(long, default_value = "")]
    fouls: String,
    /// Warnings (CXA 18.1) per player, as `ID=N,…`: last among equals (18.4).
    #[arg(long, default_value = "")]
    warnings: String,
    /// Disqualifications from a game (CXA 18.2) per player, as `ID=N,…`:
    /// last among equals, below warnings (18.4).
    #[arg(long, default_value = "")]
    disqualifications: String,
}

/// `ID=N,ID=N` into pairs; an error names the item.
fn counts(flag: &str, list: &str) -> anyhow::Result<Vec<(u32, u32)>> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            let (id, n) = item
                .split_once('=')
                .with_context(|| format!("--{flag}: {item:?} is not ID=N"))?;
            Ok((
                id.trim()
                    .parse()
                    .with_context(|| format!("--{flag}: {id:?} is not a pairing number"))?,
                n.trim()
                    .parse()
                    .with_context(|| format!("--{flag}: {n:?} is not a count"))?,
            ))
        })
        .collect()
}

/// A header line, then one line per player: rank (`3=` when shared),
/// pairing number, name, points and each tie-break; ties that need a
/// play-off follow as `playoff: 3 7`.
pub fn run(a: Args) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&a.file).with_context(|| format!("reading {}", a.file.display()))?;
    let t = tournament::trf::parse(&text).with_context(|| a.file.display().to_string())?;
    let tiebreaks = Tiebreak::parse_list(&a.tiebreaks)?;
    let system = match a.system {
        SystemArg::Swiss => System::Swiss,
        SystemArg::RoundRobin => System::RoundRobin,
    };
    let mut rules = Rules::new(system, tiebreaks);
    rules.unplayed = match a.unplayed {
        UnplayedArg::Dummy => Unplayed::Dummy,
        UnplayedArg::Virtual => Unplayed::VirtualOpponent,
    };
    rules.playoff_places = a.playoff_places;
    for (id, n) in counts("fouls", &a.fouls)? {
        rules.fouls.insert(id, n);
    }
    for (id, n) in counts("warnings", &a.warnings)? {
        rules.penalties.entry(id).or_default().warnings = n;
    }
    for (id, n) in counts("disqualifications", &a.disqualifications)? {
        rules.penalties.entry(id).or_default().disqualifications = n;
    }
    for id in rules.fouls.keys().chain(rules.penalties.keys()) {
        anyhow::ensure!(
            t.player(*id).is_some(),
            "there is no player {id} in {}",
            a.file.display()
        );
    }
    let s = standings(&t, &rules)?;
    let width = s
        .rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!("{:<5} {:>4}  {:<width$} {:>5}", "RANK", "NO", "NAME", "PTS");
    for tb in &s.tiebreaks {
        out.push_str(&format!(" {:>7}", tb.name()));
    }
    out.push('\n');
    for r in &s.rows {
        let rank = format!("{}{}", r.rank, if r.shared { "=" } else { "" });
        let line = format!(
            "{rank:<5} {:>4}  {:<width$} {:>5}",
            r.id,
            r.name,
            r.points.to_string()
        );
        out.push_str(&line);
        for v in &r.values {
            match v {
                Some(v) => out.push_str(&format!(" {:>7}", v.to_string())),
                None => out.push_str(&format!(" {:>7}", "-")),
            }
        }
        out.push('\n');
    }
    for g in &s.playoffs {
        let ids: Vec<String> = g.iter().map(|p| p.to_string()).collect();
        out.push_str(&format!("playoff: {}\n", ids.join(" ")));
    }
    print!("{out}");
    Ok(())
}
