//! `qiju admin`: operator actions written straight into the platform's
//! database, so they work whether or not a server is running (SQLite's log
//! and PostgreSQL both take a second writer).

use anyhow::{bail, Context};

#[derive(clap::Args)]
pub struct Args {
    /// The server's database, as given to `qiju serve --database`.
    #[arg(long, global = true, default_value = "sqlite://qiju.db")]
    database: String,
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Award, change or clear a player's titles. 特级大师 and 一级大师 are
    /// never reached by rating (seed 003): the platform's events award them
    /// here, and they are kept whatever the rating does afterwards. The
    /// real-world title (国际特大, 国家特大, 国际大师, 国家大师) is shown beside
    /// the rating title once verified. A flag left out keeps that title.
    Title {
        /// The player's account name.
        user: String,
        /// 特级大师 | 一级大师 (or special_grandmaster | first_master), or `none`.
        #[arg(long)]
        awarded: Option<String>,
        /// 国际特大 | 国家特大 | 国际大师 | 国家大师 (or their English
        /// snake_case names), or `none`.
        #[arg(long)]
        real: Option<String>,
        /// The event whose results justify the award (issue 28): it must be
        /// over and the player in it; the award is recorded with it and
        /// written in the event's log.
        #[arg(long)]
        event: Option<String>,
    },
    /// Copy the database (SQLite) into FILE while the server keeps running:
    /// a consistent snapshot (`VACUUM INTO`). FILE must not exist.
    Backup {
        /// Where the copy goes.
        file: std::path::PathBuf,
    },
    /// Mute a player's chat (their lines reach nobody but themselves), or
    /// with --off give it back.
    Mute {
        /// The player's account name.
        user: String,
        #[arg(long)]
        off: bool,
    },
    /// Ban a player: they cannot log in, and their sessions and bot tokens
    /// end at once; with --off let them back.
    Ban {
        /// The player's account name.
        user: String,
        #[arg(long)]
        off: bool,
    },
    /// Let a player organise rated events (docs/EVENTS.md: any registered
    /// account may organise casual ones), or with --off take it back.
    Organiser {
        /// The player's account name.
        user: String,
        #[arg(long)]
        off: bool,
    },
    /// The chat lines players reported, newest first.
    Reports {
        /// How many to show.
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
    /// Verify the database without changing it: SQLite's integrity check,
    /// the schema version, and every live game read and replayed. Exit 1
    /// when something is wrong.
    Check,
}

/// `Some(None)` clears, `Some(Some(name))` sets, `None` keeps.
fn change<T: std::str::FromStr>(
    flag: Option<&str>,
    stored: fn(&T) -> &'static str,
) -> anyhow::Result<Option<Option<&'static str>>>
where
    T::Err: std::error::Error + Send + Sync + 'static,
{
    match flag {
        None => Ok(None),
        Some("none") => Ok(Some(None)),
        Some(s) => Ok(Some(Some(stored(&s.parse::<T>()?)))),
    }
}

pub fn run(a: Args) -> anyhow::Result<()> {
    match a.action {
        Action::Title {
            user,
            awarded,
            real,
            event,
        } => title(&a.database, user, awarded, real, event),
        Action::Backup { file } => runtime()?.block_on(async {
            let bytes = store::integrity::backup(&a.database, &file).await?;
            println!("copied {} into {} ({bytes} bytes)", a.database, file.display());
            anyhow::Ok(())
        }),
        Action::Organiser { user, off } => runtime()?.block_on(async {
            let store = open(&a.database).await?;
            let Some(u) = store.user_by_name(&user).await? else {
                bail!("no player named {user:?}");
            };
            if u.guest {
                bail!("{user:?} is a guest account; organisers are registered players");
            }
            store.set_organiser(&u.id, !off, common::now_ms()).await?;
            println!(
                "{}: {}",
                u.name,
                if off {
                    "may organise casual events only"
                } else {
                    "may organise rated events"
                }
            );
            store.close().await;
            anyhow::Ok(())
        }),
        Action::Mute { user, off } => runtime()?.block_on(async {
            let store = open(&a.database).await?;
            let Some(u) = store.user_by_name(&user).await? else {
                bail!("no player named {user:?}");
            };
            store.set_muted(&u.id, !off).await?;
            println!("{}: chat {}", u.name, if off { "allowed" } else { "muted" });
            store.close().await;
            anyhow::Ok(())
        }),
        Action::Ban { user, off } => runtime()?.block_on(async {
            let store = open(&a.database).await?;
            let Some(u) = store.user_by_name(&user).await? else {
                bail!("no player named {user:?}");
            };
            store.set_banned(&u.id, !off).await?;
            println!(
                "{}: {}",
                u.name,
                if off {
                    "may log in again"
                } else {
                    "banned, sessions ended"
                }
            );
            store.close().await;
            anyhow::Ok(())
        }),
        Action::Reports { limit } => runtime()?.block_on(async {
            let store = open(&a.database).await?;
            let reports = store.reports(limit).await?;
            if reports.is_empty() {
                println!("no reports");
            }
            for r in reports {
                println!(
                    "{}  {} reported {} ({}) for {}: {}",
                    utc(r.created_ms),
                    escaped(&r.reporter),
                    escaped(&r.reported),
                    escaped(&r.context),
                    escaped(&r.reason),
                    escaped(&r.text)
                );
            }
            store.close().await;
            anyhow::Ok(())
        }),
        Action::Check => {
            let report = runtime()?.block_on(store::integrity::check(&a.database, play::live::replays))?;
            for line in &report.lines {
                println!("{line}");
            }
            if report.bad {
                println!("{}: problems found", a.database);
                std::process::exit(1);
            }
            println!("{}: ok", a.database);
            Ok(())
        }
    }
}

/// Stored text as a terminal may print it: what would act rather than
/// show (an escape sequence, a newline that forges a line, a direction
/// override) is written as `\u{…}`, and a backslash as `\\`, so nothing
/// a player typed reads as the operator's own output. The door refuses
/// such text now (`lobby::chat`); reports stored before are printed so.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if common::names::hidden(c) => out.push_str(&format!("\\u{{{:04x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// `2026.12.03 22:51 UTC`.
fn utc(ms: i64) -> String {
    let minutes = ms.rem_euclid(86_400_000) / 60_000;
    format!(
        "{} {:02}:{:02} UTC",
        registry::pgn_date(ms),
        minutes / 60,
        minutes % 60
    )
}

async fn open(database: &str) -> anyhow::Result<store::Store> {
    store::Store::connect(database)
        .await
        .with_context(|| format!("cannot open the database {database:?}"))
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

fn title(
    database: &str,
    user: String,
    awarded: Option<String>,
    real: Option<String>,
    event: Option<String>,
) -> anyhow::Result<()> {
    let awarded = change::<rating::AwardedTitle>(awarded.as_deref(), |t| t.as_str())?;
    let real = change::<rating::RealTitle>(real.as_deref(), |t| t.as_str())?;
    if awarded.is_none() && real.is_none() {
        bail!("nothing to change: give --awarded and/or --real");
    }
    runtime()?.block_on(async move {
        let store = store::Store::connect(database)
            .await
            .with_context(|| format!("cannot open the database {database:?}"))?;
        let Some(u) = store.user_by_name(&user).await? else {
            bail!("no player named {user:?}");
        };
        if u.guest {
            bail!("{user:?} is a guest account; titles go to registered players");
        }
        if let Some(id) = &event {
            let Some(e) = store.event(id).await? else {
                bail!("no event {id:?}");
            };
            if e.state != "finished" {
                bail!(
                    "event {id:?} ({}) is not over: a title is awarded on final results",
                    e.name
                );
            }
            if !store.entries(id).await?.iter().any(|x| x.user_id == u.id) {
                bail!("{user:?} did not play in event {id:?} ({})", e.name);
            }
            if awarded.is_none() {
                bail!("--event justifies an awarded title: give --awarded");
            }
        }
        let changed_award = awarded.is_some();
        // A flag left out keeps what is stored.
        let awarded = awarded.unwrap_or(u.awarded_title.as_deref());
        let real = real.unwrap_or(u.real_title.as_deref());
        store.set_titles(&u.id, awarded, real).await?;
        let now = common::now_ms();
        if changed_award {
            store
                .record_title_award(&u.id, awarded, event.as_deref(), now)
                .await?;
        }
        if let Some(id) = &event {
            store
                .log_event_action(
                    id,
                    now,
                    None,
                    "operator",
                    "title",
                    &format!(
                        "{} awarded the title {} on this event's results",
                        u.name,
                        awarded.unwrap_or("none")
                    ),
                )
                .await?;
        }
        println!(
            "{}: awarded title {}, real-world title {}",
            u.name,
            awarded.unwrap_or("none"),
            real.unwrap_or("none")
        );
        store.close().await;
        anyhow::Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::escaped;

    #[test]
    fn stored_text_cannot_act_on_the_terminal() {
        assert_eq!(escaped("\u{1b}]0;owned\u{7}"), "\\u{001b}]0;owned\\u{0007}");
        assert_eq!(escaped("a\nb\r"), "a\\u{000a}b\\u{000d}");
        assert_eq!(escaped("\u{202e}abc\u{9b}"), "\\u{202e}abc\\u{009b}");
        assert_eq!(escaped("a\\u{1b}"), "a\\\\u{1b}", "a typed escape stays text");
        assert_eq!(escaped("有人下一盘吗？ ok"), "有人下一盘吗？ ok");
        assert!(!escaped("\u{1b}[2J\n").chars().any(char::is_control));
    }
}
