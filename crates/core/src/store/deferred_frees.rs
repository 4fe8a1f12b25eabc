//! Hands back what sled freed "later" once a thread that wrote goes idle.
//!
//! sled 0.34 frees replaced tree pages and sealed write buffers (512 KiB each) through crossbeam-epoch:
//! each thread collects what it retires in a bag of its own, and a bag is only handed over for freeing
//! when it fills (64 items) or the thread flushes it. A thread that wrote during a burst and then waits
//! keeps its bag, and with it those buffers, for as long as the service is idle: measured, 1.5 to 5 MB of
//! the heap still held after 100,000 logged requests (docs/performance.md, "Memory at idle").
//! The two threads that write the most (the flusher, the traffic log's writer) call this once they have
//! been idle for a moment.

/// Hands this thread's retired sled memory over and frees everything no reader can still see. A few
/// rounds, because the global epoch has to move past a bag twice before its items may be freed. Harmless
/// at any time; it runs what the bags hold (sled's frees), so it is called only after idle moments, away
/// from any lock a request waits on.
pub fn release_deferred_frees() {
    // sled uses crossbeam-epoch's default collector (the one `pin` uses), the version Cargo.lock pins
    // for both; were they ever to differ, this would flush an unused collector: a no-op, never a fault.
    for _ in 0..3 {
        crossbeam_epoch::pin().flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn what_a_thread_retired_is_freed_once_it_releases_its_bag() {
        // Something retired the way sled retires a replaced page: deferred on this thread's bag.
        let dropped = Arc::new(AtomicUsize::new(0));
        struct Counted(Arc<AtomicUsize>);
        impl Drop for Counted {
            fn drop(&mut self) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let retired = Counted(Arc::clone(&dropped));
        crossbeam_epoch::pin().defer(move || drop(retired));
        assert_eq!(
            dropped.load(Ordering::SeqCst),
            0,
            "a lone item waits in the bag"
        );
        // Other tests' threads may hold the epoch back for a while (a large sled transaction): bounded by
        // tries, each a millisecond apart, so a loaded machine gets seconds.
        for _ in 0..5_000 {
            release_deferred_frees();
            if dropped.load(Ordering::SeqCst) == 1 {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        panic!("the retired item was never freed");
    }
}
