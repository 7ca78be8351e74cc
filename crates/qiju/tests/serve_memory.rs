//! Memory under a registration flood (issue 15, finding 1): each argon2id
//! hash holds ~19 MiB, and 200 registrations at once took the server from
//! 10 MiB to 3.7 GiB. With the bounded hashing pool the peak resident set
//! of `qiju serve` stays under 300 MiB, and every registration succeeds.

mod common;

use common::{free_port, start_with, unique, Http};

/// The peak resident set of a process (VmHWM), in KiB.
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

#[test]
fn two_hundred_registrations_at_once_stay_under_300_mib() {
    if !std::path::Path::new("/proc/self/status").exists() {
        eprintln!("SKIPPED: no /proc to read the server's memory from");
        return;
    }
    let dir = std::env::temp_dir().join(unique("qiju-mem-"));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("qiju.db").display());
    let port = free_port();
    // All 200 come from 127.0.0.1 within a second: the connection cap and
    // the registration limits are not under test, the memory is.
    let mut server = start_with(
        &db,
        port,
        "memory-test",
        &["--max-connections-per-ip", "0", "--registrations-per-minute", "0"],
    );
    let before = peak_rss_kib(server.id());
    let threads: Vec<_> = (0..200)
        .map(|i| {
            let addr = format!("127.0.0.1:{port}");
            std::thread::spawn(move || {
                let http = Http { addr };
                let name = unique(&format!("m{i}-"));
                http.request(
                    "POST",
                    "/api/auth/register",
                    None,
                    Some(&format!(r#"{{"name":"{name}","password":"correct horse"}}"#)),
                )
                .status
            })
        })
        .collect();
    let statuses: Vec<u16> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let peak = peak_rss_kib(server.id());
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(statuses.iter().all(|&s| s == 201), "{statuses:?}");
    eprintln!(
        "peak RSS: {} MiB before, {} MiB after 200 registrations",
        before / 1024,
        peak / 1024
    );
    assert!(peak < 300 * 1024, "peak RSS {} MiB", peak / 1024);
}
