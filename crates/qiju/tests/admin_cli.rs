//! `qiju admin title`: an operator awards titles in the database while the
//! server runs, and the player's public profile shows them at once; bad
//! input changes nothing and exits with 2. `qiju admin backup` copies the
//! database beside the running server and `qiju admin check` verifies it.
//! `qiju admin reports` prints what players wrote as text, never as
//! terminal control.

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

#[test]
fn awarded_titles_show_on_the_profile_and_bad_input_changes_nothing() {
    let dir = std::env::temp_dir().join(unique("qiju-admin-"));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("qiju.db").display());
    let port = free_port();
    let http = Http {
        addr: format!("127.0.0.1:{port}"),
    };
    let mut server = start(&db, port, "admin-test");
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

#[test]
fn a_backup_made_while_the_server_runs_checks_whole_and_serves() {
    let dir = std::env::temp_dir().join(unique("qiju-backup-"));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("qiju.db").display());
    let port = free_port();
    let http = Http {
        addr: format!("127.0.0.1:{port}"),
    };
    let mut server = start(&db, port, "backup-test");
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
