//! `qiju admin title`: an operator awards titles in the database while the
//! server runs, and the player's public profile shows them at once; bad
//! input changes nothing and exits with 2. `qiju admin backup` copies the
//! database beside the running server and `qiju admin check` verifies it.
//! `qiju admin reports` prints what players wrote as text, never as
//! terminal control. A title awarded on an event's results is recorded
//! with the event and written in its log (issue 28).

mod common;

use common::{free_port, register_named, start, unique, Http};
use std::process::Command;

fn admin(db: &str, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qiju"))
        .args(["admin", "--database", db])
        .args(args)
        .output()
        .expect("qiju runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr),
    )
}

/// A server on a fresh SQLite file: its folder, database URL, client and
/// process.
fn served(prefix: &str, node: &str) -> (std::path::PathBuf, String, Http, std::process::Child) {
    let dir = std::env::temp_dir().join(unique(prefix));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("qiju.db").display());
    let port = free_port();
    let http = Http {
        addr: format!("127.0.0.1:{port}"),
    };
    let server = start(&db, port, node);
    (dir, db, http, server)
}

#[test]
fn awarded_titles_show_on_the_profile_and_bad_input_changes_nothing() {
    let (dir, db, http, mut server) = served("qiju-admin-", "admin-test");
    let name = unique("gm");
    register_named(&http, &name);
    let profile = |http: &Http| http.json("GET", &format!("/api/users/{name}"), None, None);
    let fresh = profile(&http);
    assert!(fresh["title"].is_null(), "a new player has no title: {fresh}");

    let (code, out) = admin(
        &db,
        &["title", &name, "--awarded", "特级大师", "--real", "国家大师"],
    );
    assert_eq!(code, 0, "{out}");
    let p = profile(&http);
    assert_eq!(p["title"], "特级大师", "{p}");
    assert_eq!(p["real_title"], "国家大师", "{p}");
    assert_eq!(p["rating"], fresh["rating"], "an award does not touch the rating");

    // Unknown title, unknown player, nothing to do: exit 2, nothing changed.
    for bad in [
        vec!["title", name.as_str(), "--awarded", "grandpa"],
        vec!["title", "no-such-player", "--awarded", "一级大师"],
        vec!["title", name.as_str()],
    ] {
        let (code, out) = admin(&db, &bad);
        assert_eq!(code, 2, "{bad:?}: {out}");
        assert!(out.contains("qiju:"), "{bad:?} explains itself: {out}");
    }
    assert_eq!(profile(&http)["title"], "特级大师");

    // Changing only the real-world title keeps the award; `none` clears.
    let (code, out) = admin(&db, &["title", &name, "--real", "none"]);
    assert_eq!(code, 0, "{out}");
    let p = profile(&http);
    assert_eq!(p["title"], "特级大师", "{p}");
    assert!(p["real_title"].is_null(), "{p}");
    let (code, out) = admin(&db, &["title", &name, "--awarded", "none"]);
    assert_eq!(code, 0, "{out}");
    assert!(profile(&http)["title"].is_null());

    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A title awarded on a finished event's results: recorded with the event
/// and written in its public log; an event not over, a player not in it,
/// or no such event refused with exit 2, changing nothing.
#[test]
fn a_title_awarded_on_an_events_results_names_the_event() {
    let (dir, db, http, mut server) = served("qiju-admin-ev-", "admin-event-test");
    let org = register_named(&http, &unique("org"));
    let create = |name: &str| {
        let body = format!(r#"{{"name":"{name}","time_control":"10+0","system":"round-robin"}}"#);
        http.json("POST", "/api/events", Some(&org), Some(&body))["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let id = create("Championship");
    let open = create("Next year");
    let names = [unique("ta"), unique("tb")];
    let cookies: Vec<String> = names.iter().map(|n| register_named(&http, n)).collect();
    for c in &cookies {
        http.json("POST", &format!("/api/events/{id}/join"), Some(c), Some("{}"));
    }
    let outsider = unique("tc");
    register_named(&http, &outsider);
    http.json("POST", &format!("/api/events/{id}/pair"), Some(&org), Some("{}"));
    let ev = http.json("GET", &format!("/api/events/{id}"), None, None);
    let board = &ev["rounds_paired"][0]["boards"][0];
    let game = board["game"].as_str().unwrap();
    let cookie = |side: &str| &cookies[names.iter().position(|n| *n == board[side]["name"]).unwrap()];
    for (side, what) in [
        ("white", "move/h2e2"),
        ("black", "move/h7e7"),
        ("black", "resign"),
    ] {
        let r = http.request(
            "POST",
            &format!("/api/games/{game}/{what}"),
            Some(cookie(side)),
            Some("{}"),
        );
        assert_eq!(r.status, 200, "{what}: {}", r.body);
    }
    let t0 = std::time::Instant::now();
    while http.json("GET", &format!("/api/events/{id}"), None, None)["state"] != "finished" {
        assert!(t0.elapsed().as_secs() < 30, "the event did not finish");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let champion = board["white"]["name"].as_str().unwrap().to_string();
    for bad in [
        vec![
            "title",
            champion.as_str(),
            "--awarded",
            "一级大师",
            "--event",
            "nosuchev",
        ],
        vec![
            "title",
            champion.as_str(),
            "--awarded",
            "一级大师",
            "--event",
            open.as_str(),
        ],
        vec![
            "title",
            outsider.as_str(),
            "--awarded",
            "一级大师",
            "--event",
            id.as_str(),
        ],
        vec![
            "title",
            champion.as_str(),
            "--real",
            "国家大师",
            "--event",
            id.as_str(),
        ],
    ] {
        let (code, out) = admin(&db, &bad);
        assert_eq!(code, 2, "{bad:?}: {out}");
    }
    let profile = |n: &str| http.json("GET", &format!("/api/users/{n}"), None, None);
    assert!(profile(&champion)["title"].is_null(), "nothing changed");
    let (code, out) = admin(
        &db,
        &["title", &champion, "--awarded", "一级大师", "--event", &id],
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(profile(&champion)["title"], "一级大师");
    let log = http.json("GET", &format!("/api/events/{id}/log"), None, None);
    let line = log
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["action"] == "title")
        .unwrap_or_else(|| panic!("{log}"));
    assert_eq!(line["by"], "operator");
    assert!(line["detail"].as_str().unwrap().contains(&champion), "{line}");
    server.kill().unwrap();
    server.wait().unwrap();
    // The record names the event.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let store = store::Store::connect(&db).await.unwrap();
        let u = store.user_by_name(&champion).await.unwrap().unwrap();
        let awards = store.title_awards(&u.id).await.unwrap();
        assert_eq!(awards.len(), 1);
        assert_eq!(
            (awards[0].1.as_deref(), awards[0].2.as_deref()),
            (Some("first_master"), Some(id.as_str()))
        );
        store.close().await;
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_backup_made_while_the_server_runs_checks_whole_and_serves() {
    let (dir, db, http, mut server) = served("qiju-backup-", "backup-test");
    let name = unique("kept");
    register_named(&http, &name);
    let copy = dir.join("copy.db");
    let (code, out) = admin(&db, &["backup", copy.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    // Never over an existing file.
    let (code, out) = admin(&db, &["backup", copy.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("exists already"), "{out}");
    server.kill().unwrap();
    server.wait().unwrap();
    // The copy is whole, and a server on it knows the player.
    let copy_db = format!("sqlite://{}", copy.display());
    let (code, out) = admin(&copy_db, &["check"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("integrity_check: ok") && out.contains("schema:"),
        "{out}"
    );
    let port = free_port();
    let mut server = start(&copy_db, port, "backup-test");
    let http = Http {
        addr: format!("127.0.0.1:{port}"),
    };
    let p = http.json("GET", &format!("/api/users/{name}"), None, None);
    assert_eq!(p["name"], name.as_str(), "{p}");
    server.kill().unwrap();
    server.wait().unwrap();
    // A file that is not a database: the check says so and exits 2.
    let junk = dir.join("junk.db");
    std::fs::write(&junk, "not a database").unwrap();
    let (code, out) = admin(&format!("sqlite://{}", junk.display()), &["check"]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("junk.db") && out.contains("not an SQLite database"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A report stored before the door refused control characters (issue 24,
/// item 6) holds an escape sequence that retitles and clears the terminal
/// and a newline that forges a second report: `qiju admin reports` prints
/// it as one line of text, the controls escaped.
#[test]
fn reports_print_as_text_whatever_they_hold() {
    let dir = std::env::temp_dir().join(unique("qiju-reports-"));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("qiju.db").display());
    let forged = "hi\u{1b}]0;owned\u{7}\u{1b}[2J\n2026.01.01 00:00 UTC  admin reported nobody (lobby): \u{202e}gnp.exe";
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let store = store::Store::connect(&db).await.unwrap();
            for (id, name) in [("u1", "reporter_a"), ("u2", "reported_b")] {
                store.create_user(id, name, None, false, 0).await.unwrap();
            }
            store
                .add_report(&store::NewReport {
                    id: "r1",
                    reporter_id: "u1",
                    reported_id: "u2",
                    context: "lobby\r\n",
                    reason: "spam\u{1b}[2J",
                    text: forged,
                    now_ms: 0,
                })
                .await
                .unwrap();
            store.close().await;
        });
    let (code, out) = admin(&db, &["reports"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        !out.trim_end().chars().any(|c| c.is_control() || c == '\u{202e}'),
        "{out:?}"
    );
    assert_eq!(out.trim_end().lines().count(), 1, "{out}");
    assert!(
        out.contains("\\u{001b}]0;owned\\u{0007}")
            && out.contains("\\u{202e}gnp.exe")
            && out.contains("for spam\\u{001b}[2J:"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
