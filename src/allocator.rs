//! The headless binary's allocator: mimalloc on Linux (the default feature `mimalloc`), the system's on
//! other platforms and with `--no-default-features`.
//!
//! Why: a signed request allocates and frees on the runtime's worker threads and hands the traffic log's
//! capture to its writer thread, which frees it. Under 64 connections glibc's malloc spent about a sixth of
//! the server's CPU in its arenas (`_int_malloc`, `_int_free`, `malloc_consolidate`); with mimalloc the
//! CPU per signed request is 0.896 × glibc's in the same rounds (docs/performance.md, "The signed path").
//! The desktop app keeps glibc's allocator, whose freed heap it hands back with `malloc_trim`
//! (src-tauri/src/memory.rs).

#[cfg(all(feature = "mimalloc", target_os = "linux"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(all(feature = "mimalloc", target_os = "linux"))]
mod settings {
    use std::ffi::{c_int, c_long};

    /// mimalloc's option `arena_eager_commit` (the same index, 4, in its versions 2 and 3: `mi_option_e`
    /// in mimalloc.h; Cargo.lock pins the version).
    const ARENA_EAGER_COMMIT: c_int = 4;

    extern "C" {
        /// mimalloc's own setter (in the library the `mimalloc` crate links).
        fn mi_option_set(option: c_int, value: c_long);
        /// Frees what the calling thread's heap holds unused and, with `force`, purges every arena's
        /// freed pages at once (process-wide) instead of after mimalloc's delay, which only an
        /// allocation would notice: an idle service makes none.
        fn mi_collect(force: bool);
    }

    /// See [`super::return_freed_memory_periodically`].
    pub fn collect() {
        // SAFETY: mimalloc's collection takes its own locks; it may be called from any thread at any time.
        unsafe { mi_collect(true) }
    }

    /// Commits the allocator's arenas as they are used rather than all at once. By default mimalloc
    /// commits its first arena (64 MiB) eagerly on Linux, which put the idle service at about 69 MB
    /// resident instead of 24 MB, for no difference in CPU per request beyond the runs' spread.
    ///
    /// It has to run before mimalloc reads its options, which it does in a constructor of priority 101
    /// as the process loads, before `main` (set first thing in `main`, it was too late: 69 MB at start,
    /// measured): so it is a constructor of priority 100, which the loader runs first. An explicit
    /// `MIMALLOC_ARENA_EAGER_COMMIT` in the environment is not read once this has set the option.
    extern "C" fn commit_arenas_as_used() {
        // SAFETY: sets one entry of mimalloc's option table; no pointer, no allocation.
        unsafe { mi_option_set(ARENA_EAGER_COMMIT, 0) }
    }

    #[used]
    #[link_section = ".init_array.00100"]
    static BEFORE_THE_ALLOCATOR_STARTS: extern "C" fn() = commit_arenas_as_used;
}

/// How often freed memory goes back to the system.
#[cfg(all(feature = "mimalloc", target_os = "linux"))]
const COLLECT_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// Hands freed memory back to the system every two seconds, as the desktop app does with glibc's
/// `malloc_trim`: after a burst of requests the pages the runtime's workers and the traffic log's writer
/// freed would otherwise stay resident until the next allocations reused or purged them (idle after
/// 120,000 requests: 33.3 MB against 34.3 MB without it, docs/performance.md, "The signed path"). What is
/// freed under load is reused long before two seconds pass; the collection cost no measurable CPU per
/// request in the same rounds.
pub fn return_freed_memory_periodically() {
    #[cfg(all(feature = "mimalloc", target_os = "linux"))]
    {
        let _ = std::thread::Builder::new()
            .name("xs2a-collect".into())
            .spawn(|| loop {
                std::thread::sleep(COLLECT_EVERY);
                settings::collect();
            });
    }
}
