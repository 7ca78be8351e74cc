//! The accept loop when the process runs out of file descriptors (issue
//! 15): `qiju serve` under `ulimit -n 64` with connections held open past
//! the limit keeps running, says so once in its log (not once per failed
//! accept), and serves again as soon as descriptors are free.

mod common;

use common::{free_port, healthy};
use std::io::Read;
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn running_out_of_descriptors_is_survived_and_logged_once() {
    let dir = std::env::temp_dir().join(common::unique("qiju-fds-"));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("qiju.db").display());
    let log = dir.join("server.log");
    let port = free_port();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -n 64 && exec {} serve --listen 127.0.0.1:{port} --database {db} --max-connections-per-ip 0 2>{}",
            env!("CARGO_BIN_EXE_qiju"),
            log.display()
        ))
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !healthy(port) {
        assert!(Instant::now() < deadline, "qiju serve did not come up");
        assert!(child.try_wait().unwrap().is_none(), "qiju serve exited");
        std::thread::sleep(Duration::from_millis(100));
    }
    // 200 connections: far more than the 64 descriptors the server has.
    let held: Vec<TcpStream> = (0..200)
        .filter_map(|_| TcpStream::connect(("127.0.0.1", port)).ok())
        .collect();
    assert!(held.len() > 100, "only {} connections were made", held.len());
    std::thread::sleep(Duration::from_secs(2));
    assert!(child.try_wait().unwrap().is_none(), "the server died");
    drop(held);
    // Descriptors free again: served within a few seconds.
    let deadline = Instant::now() + Duration::from_secs(15);
    while !healthy(port) {
        assert!(Instant::now() < deadline, "the server does not serve again");
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let mut text = String::new();
    std::fs::File::open(&log)
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    let complaints = text.matches("cannot accept connections").count();
    assert!(
        complaints == 1,
        "{complaints} accept complaints logged (one per episode wanted):\n{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
