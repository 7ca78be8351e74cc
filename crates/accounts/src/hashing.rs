//! The threads that compute password hashes.

use common::Error;
use std::sync::Mutex;

/// A few threads of their own that compute password hashes, one at a time
/// each, every thread with its one argon2 buffer (see [`crate::password`]):
/// the number of threads bounds the CPU and the memory all logins and
/// registrations together can take. The rest wait in the queue, holding
/// only their passwords.
#[derive(Debug)]
pub struct HashPool {
    jobs: std::sync::mpsc::Sender<Box<dyn FnOnce() + Send>>,
}

impl HashPool {
    #[must_use]
    pub fn new(threads: usize) -> HashPool {
        let (jobs, queue) = std::sync::mpsc::channel::<Box<dyn FnOnce() + Send>>();
        let queue = std::sync::Arc::new(Mutex::new(queue));
        for i in 0..threads.max(1) {
            let queue = queue.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("qiju-hash-{i}"))
                .spawn(move || loop {
                    let job = queue
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .recv();
                    match job {
                        Ok(job) => job(),
                        Err(_) => break, // the server is gone
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a password-hashing thread");
            }
        }
        HashPool { jobs }
    }

    /// Runs `f` on a hashing thread and waits for its answer.
    async fn run<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Result<T, Error> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.jobs
            .send(Box::new(move || {
                let _ = tx.send(f());
            }))
            .map_err(|_| Error::Internal("the password hashing threads are gone".into()))?;
        rx.await
            .map_err(|_| Error::Internal("a password hash failed".into()))
    }

    /// A new password's hash, with a fresh salt.
    pub(crate) async fn hash(&self, password: String) -> Result<String, Error> {
        let mut salt = [0u8; 16];
        common::random_bytes(&mut salt)?;
        self.run(move || crate::password::hash(&password, &salt).map_err(Error::Internal))
            .await?
    }

    /// Whether `password` is the one `hash` was made of.
    pub(crate) async fn verify(&self, password: String, hash: String) -> bool {
        self.run(move || crate::password::verify(&password, &hash))
            .await
            .unwrap_or(false)
    }
}
