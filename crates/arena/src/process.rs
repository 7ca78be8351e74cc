//! An engine as a child process spoken to in lines, whatever its protocol
//! (UCI, UCCI, USI in `adapter`, Gomocup's pbrain in `pbrain`): every read
//! has a deadline, so a hung or dead engine is an error, never a wait.

use crate::adapter::AdapterError;
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

/// A running engine process: its input, and its output as lines.
pub(crate) struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::UnboundedReceiver<String>,
}

impl EngineProcess {
    /// Starts `program args…` with piped stdin and stdout.
    pub(crate) fn spawn(program: &str, args: &[String]) -> Result<EngineProcess, AdapterError> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| AdapterError::Spawn {
                program: program.to_string(),
                source,
            })?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // Garbage bytes must not kill the reader.
                        let line = String::from_utf8_lossy(&buf).trim().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines: rx,
        })
    }

    /// Writes one line.
    pub(crate) async fn send(&mut self, line: &str) -> Result<(), AdapterError> {
        self.stdin.write_all(line.as_bytes()).await?;
        self.stdin.write_all(b"\n").await?;
        self.stdin.flush().await?;
        Ok(())
    }

    /// The next line before `deadline`; `what` says what was awaited.
    pub(crate) async fn line(&mut self, deadline: Instant, what: &str) -> Result<String, AdapterError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, self.lines.recv()).await {
            Ok(Some(l)) => Ok(l),
            Ok(None) => Err(AdapterError::Crashed {
                what: what.to_string(),
            }),
            Err(_) => Err(AdapterError::Timeout {
                what: what.to_string(),
                waited: left,
            }),
        }
    }

    /// Drops lines already written (late output of an earlier search).
    pub(crate) fn drain(&mut self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// Sends `farewell`, and kills the process if it has not exited within
    /// a second.
    pub(crate) async fn quit(mut self, farewell: &str) {
        let _ = self.send(farewell).await;
        if tokio::time::timeout(Duration::from_secs(1), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }

    /// Kills the process at once.
    pub(crate) async fn kill(mut self) {
        let _ = self.child.kill().await;
    }
}
