//! End-to-end tests of the browser UI in real headless Chromium.
//!
//! Starts the real binary (`qiju serve` on a free loopback port with a
//! fresh SQLite file), waits until it answers, then runs
//! `tests/e2e/rules.test.mjs` (the browser's rules module against the
//! published perft counts) and `tests/e2e/run.mjs` (two players, a
//! spectator and the computer, driven by playwright-core; screenshots go
//! to `docs/screenshots/`), then `tests/e2e/shogi.mjs` (a shogi game with
//! a promotion choice, drops and a byo-yomi flag; a handicap game against
//! Fairy-Stockfish) and `tests/e2e/renju.mjs` (a renju game lost on a
//! double-three with the forbidden marks; a swap2 game through its
//! dialogs) and `tests/e2e/players2.mjs` (issue 30: what a new player
//! meets — the phone lobby, the way back to a running game, replay on a
//! phone, an unknown game, the result dialog, …), `tests/e2e/social.mjs`
//! (issue 30, second round: quick pairing within a rating range, friends,
//! a challenge's toast on another page), `tests/e2e/look.mjs` (sharing a
//! game: FEN, link, board PNG, the PGN in Chinese; the board settings,
//! move confirmation and the sound switch), `tests/e2e/casual.mjs`
//! (takebacks, a correspondence game, your games with whose move) and
//! `tests/e2e/events.mjs` (issue 28: an event created, joined and paired
//! in the pages, its game opening for the players, the standings moving
//! with the result and the arbiter's correction; every form of the
//! arbiter's panel — re-pair, pause and resume, withdraw, late entry,
//! re-admit, publish — and the round's live boards following the players'
//! moves), `tests/e2e/teams.mjs`
//! (a team round robin: a team registered and a line-up with a substitute
//! handed in from the page, the team standings, match and rosters shown;
//! a team Swiss; an all-play-all event ranked by places, a team withdrawn)
//! and `tests/e2e/variants.mjs`
//! (issue 27: 升级象棋 against the computer with a promotion on the board,
//! the operator's file `tests/e2e/operator-variant.toml` that the server is
//! started with, janggi by a challenge) against the same server.
//!
//! Needs node, `tests/e2e/node_modules` (`cd tests/e2e && npm install`)
//! and Chromium (`apt-get install chromium`, or `QIJU_CHROMIUM`). When
//! one is missing the test says so loudly and passes, unless
//! `QIJU_REQUIRE_ORACLES=1` (as `.ci/run` sets), where it fails.

mod common;

use common::{free_port, healthy, required};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What is missing to run the browser tests, if anything.
fn missing_tools(root: &Path) -> Option<String> {
    let node = Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !node.is_ok_and(|s| s.success()) {
        return Some("node is not installed".into());
    }
    if !root.join("tests/e2e/node_modules/playwright-core").is_dir() {
        return Some("tests/e2e/node_modules is missing (run `cd tests/e2e && npm install`)".into());
    }
    if chromium().is_none() {
        return Some("Chromium is not installed (apt-get install chromium, or set QIJU_CHROMIUM)".into());
    }
    None
}

fn chromium() -> Option<String> {
    if let Ok(p) = std::env::var("QIJU_CHROMIUM") {
        if !p.is_empty() && Path::new(&p).exists() {
            return Some(p);
        }
    }
    ["chromium", "chromium-browser"].iter().find_map(|name| {
        let out = Command::new("which").arg(name).output().ok()?;
        let path = String::from_utf8(out.stdout).ok()?.trim().to_string();
        (out.status.success() && !path.is_empty()).then_some(path)
    })
}

/// The server process; killed when dropped, even if the test panics.
struct Server {
    child: Child,
    dir: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn start_server() -> (Server, u16) {
    let port = free_port();
    let dir = std::env::temp_dir().join(format!("qiju-browser-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let db = dir.join("e2e.db");
    let child = Command::new(env!("CARGO_BIN_EXE_qiju"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--database"])
        .arg(format!("sqlite://{}", db.display()))
        // A player who closes the tab may be claimed against after 3 s
        // (the e2e test waits for the countdown).
        .args(["--claim-after", "3"])
        // Every browser context comes from 127.0.0.1: the scripts together
        // register more players than one address may in an hour.
        .args(["--registrations-per-ip", "0"])
        // An operator's variant file (tests/e2e/variants.mjs plays it).
        .arg("--variants")
        .arg(repo_root().join("tests/e2e/operator-variant.toml"))
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .expect("qiju serve starts");
    let mut server = Server { child, dir };
    let deadline = Instant::now() + Duration::from_secs(60);
    while !healthy(port) {
        if let Ok(Some(status)) = server.child.try_wait() {
            panic!("qiju serve exited early: {status}");
        }
        assert!(Instant::now() < deadline, "qiju serve did not answer within 60 s");
        std::thread::sleep(Duration::from_millis(100));
    }
    (server, port)
}

fn node(root: &Path, args: &[&str]) -> bool {
    let mut cmd = Command::new("node");
    cmd.args(args).current_dir(root);
    if let Some(c) = chromium() {
        cmd.env("QIJU_CHROMIUM", c);
    }
    cmd.status().is_ok_and(|s| s.success())
}

#[test]
fn browser_end_to_end() {
    let root = repo_root();
    if !root.join("crates/server/Cargo.toml").is_file() {
        // The UI was committed before the game server it talks to.
        eprintln!("\n*** SKIPPED browser end-to-end tests: no crates/server in this checkout ***\n");
        return;
    }
    if let Some(why) = missing_tools(&root) {
        assert!(
            !required(),
            "browser tests required (QIJU_REQUIRE_ORACLES=1) but {why}"
        );
        eprintln!("\n*** SKIPPED browser end-to-end tests: {why} ***\n");
        return;
    }
    assert!(
        node(&root, &["tests/e2e/rules.test.mjs"]),
        "the browser rules module failed its tests (output above)"
    );
    let (_server, port) = start_server();
    let base = format!("http://127.0.0.1:{port}");
    assert!(
        node(&root, &["tests/e2e/run.mjs", &base]),
        "the browser end-to-end run failed (output above)"
    );
    assert!(
        node(&root, &["tests/e2e/shogi.mjs", &base]),
        "the browser's shogi run failed (output above)"
    );
    assert!(
        node(&root, &["tests/e2e/renju.mjs", &base]),
        "the browser's renju run failed (output above)"
    );
    assert!(
        node(&root, &["tests/e2e/players2.mjs", &base]),
        "the browser's run of issue 30's defects failed (output above)"
    );
    assert!(
        node(&root, &["tests/e2e/social.mjs", &base]),
        "the browser's run of quick pairing, friends and notices failed (output above)"
    );
    assert!(
        node(&root, &["tests/e2e/look.mjs", &base]),
        "the browser's run of sharing a game and the board settings failed (output above)"
    );
    assert!(
        node(&root, &["tests/e2e/casual.mjs", &base]),
        "the browser's run of takebacks, correspondence and your games failed (output above)"
    );
    assert!(
        node(&root, &["tests/e2e/events.mjs", &base]),
        "the browser's run of an event (create, join, pair, play, correct) failed (output above)"
    );
    assert!(
        node(&root, &["tests/e2e/teams.mjs", &base]),
        "the browser's run of a team event (create, register, line-up, pair, the team view) failed (output above)"
    );
    assert!(
        node(&root, &["tests/e2e/variants.mjs", &base]),
        "the browser's run of the data variants (升级象棋's promotion, an operator's file, janggi) failed (output above)"
    );
}
