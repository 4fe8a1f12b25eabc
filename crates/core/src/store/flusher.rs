//! Group commit: one thread makes writes durable for everyone.
//!
//! sled 0.34 deadlocks when several `flush_async` calls run at once (spacejam/sled#1308), which is what
//! stopped the server under eight concurrent writers. Here no request flushes: a request that wrote asks
//! for durability up to its write number and waits; the one flusher thread takes the newest write number,
//! calls sled's synchronous `flush` once for every write pending at that moment, and then releases every
//! waiter whose writes it covered. Many writers share one flush, so throughput grows with writers instead
//! of collapsing, and a waiter never holds anything the flusher needs.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// How long the flusher sleeps when nobody asks: writes made outside requests (the batch scheduler) are
/// still flushed within this time.
const BACKSTOP: Duration = Duration::from_millis(500);

/// The write numbers: every write takes the next one; `durable` is the highest one on disk.
#[derive(Debug)]
pub struct Counters {
    pub written: AtomicU64,
    pub durable: AtomicU64,
}

/// The handle requests use to wait for durability. Cheap to clone.
#[derive(Clone)]
pub struct Flusher {
    counters: Arc<Counters>,
    wake: Arc<(Mutex<u64>, Condvar)>,
    durable: watch::Receiver<Result<u64, String>>,
    stop: Arc<AtomicBool>,
    thread: Arc<Mutex<Option<std::thread::JoinHandle<()>>>>,
}

impl Flusher {
    /// Starts the flusher thread for `db`. It ends when every handle is dropped (or [`Flusher::stop`]).
    pub fn start(db: sled::Db, counters: Arc<Counters>) -> Flusher {
        let wake = Arc::new((Mutex::new(0u64), Condvar::new()));
        let (tx, rx) = watch::channel(Ok(0));
        let stop = Arc::new(AtomicBool::new(false));
        let thread_wake = Arc::clone(&wake);
        let thread_counters = Arc::clone(&counters);
        let thread_stop = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("xs2a-flusher".into())
            .spawn(move || run(db, thread_counters, thread_wake, tx, thread_stop))
            .expect("the flusher thread starts");
        Flusher {
            counters,
            wake,
            durable: rx,
            stop,
            thread: Arc::new(Mutex::new(Some(thread))),
        }
    }

    /// Waits until every write numbered up to `target` is on disk.
    pub async fn wait_for(&self, target: u64) -> Result<(), String> {
        if self.counters.durable.load(Ordering::SeqCst) >= target {
            return Ok(());
        }
        {
            let (asked, signal) = &*self.wake;
            let mut asked = asked.lock().unwrap_or_else(|p| p.into_inner());
            *asked = (*asked).max(target);
            signal.notify_one();
        }
        let mut durable = self.durable.clone();
        loop {
            match &*durable.borrow_and_update() {
                Ok(done) if *done >= target => return Ok(()),
                Ok(_) => {}
                Err(error) => return Err(error.clone()),
            }
            if durable.changed().await.is_err() {
                return Err("the flusher stopped".into());
            }
        }
    }

    /// Ends the flusher thread after its current flush and waits for it, so that it no longer holds the
    /// database open.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.wake.1.notify_one();
        let thread = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
    }
}

fn run(
    db: sled::Db,
    counters: Arc<Counters>,
    wake: Arc<(Mutex<u64>, Condvar)>,
    durable: watch::Sender<Result<u64, String>>,
    stop: Arc<AtomicBool>,
) {
    let (asked, signal) = &*wake;
    // Whether this thread flushed since it last handed back what sled retired on it.
    let mut retired_since_release = false;
    loop {
        let quiet = {
            let guard = asked.lock().unwrap_or_else(|p| p.into_inner());
            let owed = |asked: &u64| {
                *asked <= counters.durable.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst)
            };
            owed(&guard)
                && signal
                    .wait_timeout_while(guard, BACKSTOP, |a| owed(a))
                    .unwrap_or_else(|p| p.into_inner())
                    .1
                    .timed_out()
        };
        // A whole backstop with nobody asking: the write buffers its flushes sealed are freed now rather
        // than whenever this thread next flushes (see `deferred_frees`). Outside the lock, so that a
        // request asking for durability meanwhile is never held up by it.
        if quiet && retired_since_release {
            super::release_deferred_frees();
            retired_since_release = false;
        }
        let target = counters.written.load(Ordering::SeqCst);
        if target > counters.durable.load(Ordering::SeqCst) {
            retired_since_release = true;
            match db.flush() {
                Ok(_) => {
                    counters.durable.fetch_max(target, Ordering::SeqCst);
                    let _ = durable.send_replace(Ok(target));
                }
                Err(error) => {
                    tracing::error!(%error, "flushing the store failed");
                    let _ = durable.send_replace(Err(format!("flush failed: {error}")));
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        }
        if stop.load(Ordering::SeqCst) || durable.is_closed() {
            return;
        }
    }
}
