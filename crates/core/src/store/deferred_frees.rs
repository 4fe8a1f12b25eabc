//! Hands back what sled freed "later" once a thread that wrote goes idle.
//!
//! sled 0.34 frees replaced tree pages and sealed write buffers (512 KiB each) through crossbeam-epoch:
//! each thread collects what it retires in a bag of its own, and a bag is only handed over for freeing
//! when it fills (64 items) or the thread flushes it. A thread that wrote during a burst and then waits
//! keeps its bag, and with it those buffers, for as long as the service is idle: measured, about 1.5 MB
//! of the memory still held after 100,000 logged requests (docs/performance.md, "Memory at idle").
//! The two threads that write the most (the flusher, the traffic log's writer) call this once they have
//! been idle for a moment.

/// Hands this thread's retired sled memory over and frees everything no reader can still see. A few
/// rounds, because the global epoch has to move past a bag twice before its items may be freed. Cheap
/// (microseconds) and harmless at any time; called only after idle moments so it costs nothing under load.
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
        // Other tests' threads may be pinned for a moment: bounded by tries, not by time.
        for _ in 0..10_000 {
            release_deferred_frees();
            if dropped.load(Ordering::SeqCst) == 1 {
                return;
            }
            std::thread::yield_now();
        }
        panic!("the retired item was never freed");
    }
}
