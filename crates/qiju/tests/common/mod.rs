//! What the tests that drive a real `qiju serve` over loopback share: a
//! plain HTTP/1.1 client on the standard library, starting the server and
//! making accounts.
#![allow(dead_code)] // each test binary uses its own part

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Http {
    pub addr: String,
}

pub struct Reply {
    pub status: u16,
    pub headers: String,
    pub body: String,
}

impl Http {
    pub fn request(&self, method: &str, path: &str, cookie: Option<&str>, body: Option<&str>) -> Reply {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let body = body.unwrap_or("");
        let mut req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nX-Qiju-Csrf: 1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        if let Some(c) = cookie {
            req.push_str(&format!("Cookie: {c}\r\n"));
        }
        req.push_str("\r\n");
        req.push_str(body);
        s.write_all(req.as_bytes()).unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).unwrap();
        let text = String::from_utf8_lossy(&raw).to_string();
        let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
            dechunk(rest)
        } else {
            rest.to_string()
        };
        Reply {
            status,
            headers: head.to_string(),
            body,
        }
    }

    pub fn json(
        &self,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        body: Option<&str>,
    ) -> serde_json::Value {
        let r = self.request(method, path, cookie, body);
        assert!(
            (200..300).contains(&r.status),
            "{method} {path}: {} {}",
            r.status,
            r.body
        );
        serde_json::from_str(&r.body).unwrap_or_else(|e| panic!("{path}: {e}: {}", r.body))
    }
}

pub fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n.min(rest.len())]);
        s = rest.get(n + 2..).unwrap_or("");
    }
    out
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// Whether `GET /api/health` on the port answers 204.
pub fn healthy(port: u16) -> bool {
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let req = format!("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    if s.write_all(req.as_bytes()).is_err() {
        return false;
    }
    let mut buf = [0u8; 64];
    let n = s.read(&mut buf).unwrap_or(0);
    String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 204")
}

/// Starts a server and returns it once it answers; the caller owns the child and
/// kills and waits for it (the crash test kills it with SIGKILL on purpose).
pub fn start(db: &str, port: u16, node: &str) -> Child {
    start_with(db, port, node, &[])
}

/// [`start`] with more `qiju serve` arguments.
#[allow(clippy::zombie_processes)]
pub fn start_with(db: &str, port: u16, node: &str, extra: &[&str]) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qiju"))
        .args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--database",
            db,
            "--node-id",
            node,
            "--abort-after",
            "600",
            // Every test client comes from 127.0.0.1.
            "--registrations-per-ip",
            "0",
            "--guests-per-ip",
            "0",
        ])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(if std::env::var("QIJU_TEST_NODE_LOGS").is_ok() {
            Stdio::inherit()
        } else {
            Stdio::null()
        })
        .spawn()
        .expect("qiju serve starts");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !healthy(port) {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("qiju serve exited early: {status}");
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("qiju serve did not come up");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child
}

pub fn unique(prefix: &str) -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!(
        "{prefix}{:x}",
        (t ^ u128::from(std::process::id())) & 0x00ff_ffff_ffff
    )
}

pub fn register(http: &Http, prefix: &str) -> String {
    register_named(http, &unique(prefix))
}

/// Registers `name` (password "correct horse") and returns its session cookie.
pub fn register_named(http: &Http, name: &str) -> String {
    let r = http.request(
        "POST",
        "/api/auth/register",
        None,
        Some(&format!(r#"{{"name":"{name}","password":"correct horse"}}"#)),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    r.headers
        .lines()
        .find_map(|l| {
            let l = l
                .strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))?;
            l.starts_with("qiju_session=")
                .then(|| l.split(';').next().unwrap().to_string())
        })
        .expect("session cookie")
}

/// Runs the `qiju` binary with `args`: exit code, stdout, stderr.
pub fn qiju(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qiju"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Whether CI asks every optional tool to be there (`QIJU_REQUIRE_ORACLES=1`):
/// a test that would skip for want of one fails instead.
pub fn required() -> bool {
    std::env::var("QIJU_REQUIRE_ORACLES").is_ok_and(|v| v == "1")
}

/// The PostgreSQL of the tests (`QIJU_TEST_POSTGRES`); `None` (the test
/// says so and passes) when it is not set, unless [`required`].
pub fn postgres() -> Option<String> {
    match std::env::var("QIJU_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            assert!(!required(), "QIJU_REQUIRE_ORACLES=1 requires QIJU_TEST_POSTGRES");
            eprintln!("skipped: QIJU_TEST_POSTGRES is not set");
            None
        }
    }
}

/// Sends `send` every 100 ms until it answers 200, while it answers one of
/// `waiting` (e.g. 404: no node holds the game yet); panics on any other
/// answer (with its body, and the answers before it) or after `within`.
/// How long it took.
pub fn until_taken(
    within: Duration,
    what: &str,
    waiting: &[u16],
    mut send: impl FnMut() -> Reply,
) -> Duration {
    let t0 = Instant::now();
    let mut before = Vec::new();
    loop {
        let r = send();
        match r.status {
            200 => return t0.elapsed(),
            s if waiting.contains(&s) => {
                before.push(format!("{} ms: {s} {}", t0.elapsed().as_millis(), r.body))
            }
            s => panic!(
                "{what}: answered {s} {} after {} ms; before it: {before:#?}",
                r.body,
                t0.elapsed().as_millis()
            ),
        }
        assert!(
            t0.elapsed() < within,
            "{what}: not within {within:?}; answers: {before:#?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits until `ready` holds, asking every 50 ms; panics after `within`.
pub fn wait_until(within: Duration, what: &str, mut ready: impl FnMut() -> bool) {
    let t0 = Instant::now();
    while !ready() {
        assert!(t0.elapsed() < within, "{what}: not within {within:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
