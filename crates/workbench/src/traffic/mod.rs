//! The traffic log behind the workbench's inspector and flow view (docs/traffic-api.md): every request
//! that reaches the port becomes an exchange, and batch runs, payment status changes and clock moves are
//! events on the same timeline. The request path only hands a captured exchange to a channel; one writer
//! thread numbers nothing twice, classifies entries into journeys, stores them in batches (durable across
//! restarts, like every write), prunes the oldest beyond the caps, and announces each entry live.

pub mod chunks;
mod clearing;
pub mod filters;
mod lookup;
pub use clearing::TrafficCleared;
pub mod codec;
pub mod har;
pub mod journeys;
pub mod model;
pub mod raw;
mod reading;
pub use reading::Keep;
pub mod schema;
pub mod segment;
pub mod shelf;
#[cfg(test)]
mod storage_tests;
pub mod store;
#[cfg(test)]
mod tests;
mod writer;

use chunks::Chunks;
use journeys::{Bodies, Index};
use model::{Entry, EventEntry, Exchange, ExchangeSummary, GateVerdict, Journey};
use raw::RawMessage;
use segment::{Item, Segment, SegmentInfo};
use shelf::Shelf;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;
use store::{StoredSettings, TrafficSettings};
use time::OffsetDateTime;
use tokio::sync::broadcast;
use xs2a_core::bank::events::Events;
use xs2a_core::domain::refusal::{CoreResult, Refusal};
use xs2a_core::store::{Record, Store};

/// How many captured entries may wait for the writer; beyond, new ones are dropped (and counted) rather
/// than slowing requests down.
const QUEUE: usize = 16_384;

/// An exchange as the request path hands it over: a closure that builds the record, run on the writer
/// thread, so that the request pays for no copying, parsing or encoding.
pub type Capture = Box<dyn FnOnce() -> Captured + Send>;

/// What a capture builds: the exchange's summary and parts as captured (encoded straight into a segment,
/// never built into an [`Exchange`]), and its parsed answer when classifying it needs one.
pub struct Captured {
    pub summary: ExchangeSummary,
    pub request: RawMessage,
    pub response: RawMessage,
    pub gate: Option<GateVerdict>,
    pub tpp_messages: Vec<serde_json::Value>,
    pub composer_signing_string: Option<String>,
    pub answer: Option<serde_json::Value>,
}

impl Captured {
    /// What it takes for the byte cap: headers and bodies as captured, plus a fixed allowance for the
    /// summary (weighing the encoded record instead would cost a second pass over it).
    fn weight(&self) -> u64 {
        self.request.weight() + self.response.weight() + 256
    }
}

type Waiter = std::sync::mpsc::SyncSender<()>;
/// Who asked for a clear, and hears how it went.
type ClearAsker = std::sync::mpsc::SyncSender<CoreResult<TrafficCleared>>;

enum Pending {
    Exchange(Capture),
    /// Answered once everything queued before it is stored (read-your-writes for one entry).
    Barrier(Waiter),
    /// Stores what was queued before it, then empties the log (`clearing`).
    Clear(ClearAsker),
    /// Boxed: the queue's slots are as large as its largest kind, and all of them are allocated and
    /// touched when the log starts (an event inline made the 16,384 slots 1.6 MB; boxed, 0.5 MB).
    Event(Box<PendingEvent>),
}

/// An event waiting for the writer.
struct PendingEvent {
    /// The number given out already (an event the change journal recorded writes under).
    id: Option<u64>,
    at: OffsetDateTime,
    event: String,
    data: serde_json::Value,
}

/// What the composer tells the log about a request it is about to send (found again by X-Request-ID).
#[derive(Debug, Clone, Default)]
pub struct ComposerNote {
    pub signing_string: String,
    pub exchange_id: Option<u64>,
}

struct Inner {
    store: Store,
    next_id: AtomicU64,
    enabled: AtomicBool,
    settings: RwLock<TrafficSettings>,
    queue: SyncSender<Pending>,
    index: Mutex<Index>,
    /// Where the stored segments are (readers search it; the writer adds and prunes).
    shelf: RwLock<Shelf>,
    /// The segments' files (the writer's); readers read them by location, in `chunk_dir`.
    chunks: Mutex<Chunks>,
    chunk_dir: std::path::PathBuf,
    /// The chunks' directory when the database is temporary: removed with the log.
    _temporary: Option<tempfile::TempDir>,
    /// Entries behind an `Arc`: the channel's 4,096 slots are allocated and touched when the log starts,
    /// and an entry inline made them 1.7 MB (0.2 MB now); a listener only reads what it is sent.
    live: broadcast::Sender<Arc<Entry>>,
    dropped: AtomicU64,
    composer: Mutex<HashMap<String, ComposerNote>>,
}

/// The log. Cheap to clone.
#[derive(Clone)]
pub struct TrafficLog {
    inner: Arc<Inner>,
}

impl TrafficLog {
    /// Opens the log over `store` and starts its writer thread; the broadcast's events become entries.
    pub fn start(store: Store, events: &Events) -> CoreResult<TrafficLog> {
        let settings = store
            .table::<StoredSettings>()?
            .get("settings")?
            .map(|s| s.settings)
            .unwrap_or_default();
        // A temporary database (tests, `serve --ephemeral`) gets a temporary chunk directory, removed with
        // the log; named so that one a killed process left behind says what it is.
        let (chunk_dir, temporary) = match store.dir() {
            Some(dir) => (dir.join("traffic-log"), None),
            None => {
                let temporary = tempfile::Builder::new()
                    .prefix("xs2a-traffic-log-")
                    .tempdir()
                    .map_err(Refusal::internal)?;
                (temporary.path().to_owned(), Some(temporary))
            }
        };
        let mut shelf = Shelf::new(store.table::<SegmentInfo>()?.list()?);
        let mut chunks = Chunks::open(&chunk_dir, shelf.segments().map(|s| s.info.location()))
            .map_err(Refusal::internal)?;
        store::carry_over_earlier_log(&store, &mut shelf, &mut chunks)?;
        let last = shelf.last_id();
        let (queue, receiver) = sync_channel(QUEUE);
        let inner = Arc::new(Inner {
            store,
            next_id: AtomicU64::new(last + 1),
            enabled: AtomicBool::new(settings.enabled),
            settings: RwLock::new(settings),
            queue,
            index: Mutex::new(Index::default()),
            shelf: RwLock::new(shelf),
            chunks: Mutex::new(chunks),
            chunk_dir,
            _temporary: temporary,
            live: broadcast::channel(4096).0,
            dropped: AtomicU64::new(0),
            composer: Mutex::new(HashMap::new()),
        });
        // The writer holds the log weakly: when the service is gone, the queue closes and it ends, so the
        // data directory is released.
        let writer = Arc::downgrade(&inner);
        std::thread::Builder::new()
            .name("xs2a-traffic".into())
            .spawn(move || writer::write_loop(writer, receiver))
            .map_err(Refusal::internal)?;
        let log = TrafficLog { inner };
        log.follow(events);
        if let Some(journal) = log.inner.store.journal() {
            journal.attach(log.timeline())?;
        }
        Ok(log)
    }

    /// The log as the change journal's timeline: entry numbers for events, and the byte cap. Holds the log
    /// weakly (the store holds the journal, and the log holds the store).
    pub fn timeline(&self) -> std::sync::Arc<dyn xs2a_core::domain::cause::Timeline> {
        Arc::new(LogTimeline(Arc::downgrade(&self.inner)))
    }

    /// Events of the broadcast become timeline entries.
    /// The follower holds the log weakly, so that it keeps nothing open once the service is gone: a task on
    /// the current runtime, or, when the log is built outside any (an embedding app's GUI thread), a thread
    /// of its own, so that the timeline never silently shows exchanges only.
    fn follow(&self, events: &Events) {
        let mut receiver = events.subscribe();
        let log = Arc::downgrade(&self.inner);
        // Whether to go on: false once the log is gone or the broadcast closed.
        let handle = move |received: Result<
            xs2a_core::bank::events::Event,
            broadcast::error::RecvError,
        >|
              -> bool {
            match received {
                Ok(event) if event.kind.on_timeline() => {
                    let Some(inner) = log.upgrade() else {
                        return false;
                    };
                    TrafficLog { inner }.record_numbered_event(
                        event.entry,
                        event.at,
                        event.kind.name(),
                        event.data,
                    );
                    true
                }
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => true,
                Err(broadcast::error::RecvError::Closed) => false,
            }
        };
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { while handle(receiver.recv().await) {} });
        } else {
            let spawned = std::thread::Builder::new()
                .name("xs2a-traffic-events".into())
                .spawn(move || while handle(receiver.blocking_recv()) {});
            if let Err(error) = spawned {
                tracing::error!(%error, "the traffic log cannot follow the sandbox's events");
            }
        }
    }

    /// False when recording is switched off (the capture then costs nothing).
    pub fn enabled(&self) -> bool {
        self.inner.enabled.load(Ordering::Relaxed)
    }

    /// A fresh entry number, taken when a request arrives so that the composer can learn it.
    pub fn next_id(&self) -> u64 {
        self.inner.next_id.fetch_add(1, Ordering::SeqCst)
    }

    /// The last entry number given out so far (0 when none): entries after it are newer.
    pub fn last_given(&self) -> u64 {
        self.inner.next_id.load(Ordering::SeqCst).saturating_sub(1)
    }

    /// Waits (up to `limit`) until everything handed to the writer so far is stored, for readers that need
    /// all of it (`serve --record` at shutdown, snapshots, tests). Entries are numbered when a request
    /// arrives and stored when its answer is complete, so "the newest stored number" says nothing about
    /// older ones still pending: a barrier through the writer's queue does. False when it gave up.
    pub fn settle(&self, limit: Duration) -> bool {
        let (done, wait) = std::sync::mpsc::sync_channel(1);
        if self.inner.queue.send(Pending::Barrier(done)).is_err() {
            return false;
        }
        wait.recv_timeout(limit).is_ok()
    }

    /// Hands a captured exchange to the writer; never blocks the request.
    pub fn record_exchange(&self, capture: Capture) {
        self.send(Pending::Exchange(capture));
    }

    pub fn record_event(&self, at: OffsetDateTime, event: &str, data: serde_json::Value) {
        self.record_numbered_event(None, at, event, data);
    }

    /// Records an event under the number `id` given out for it (see [`TrafficLog::timeline`]), or a fresh
    /// one.
    pub fn record_numbered_event(
        &self,
        id: Option<u64>,
        at: OffsetDateTime,
        event: &str,
        data: serde_json::Value,
    ) {
        if self.enabled() {
            self.send(Pending::Event(Box::new(PendingEvent {
                id,
                at,
                event: event.to_owned(),
                data,
            })));
        }
    }

    fn send(&self, pending: Pending) {
        if let Err(TrySendError::Full(_)) = self.inner.queue.try_send(pending) {
            self.inner.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Waits (at most two seconds) until every exchange and event handed over so far is stored: an
    /// answer that named its exchange's number can be followed at once by a read of that exchange.
    pub async fn settled(&self) {
        let log = self.clone();
        // The queue may be full and the barrier waits for the writer: both off the runtime's threads.
        let _ = tokio::task::spawn_blocking(move || log.settle(Duration::from_secs(2))).await;
    }

    /// Whether the entry number `id` was handed out (it may not be stored yet).
    pub fn issued(&self, id: u64) -> bool {
        id < self.inner.next_id.load(Ordering::SeqCst)
    }

    /// How many entries were dropped because the writer fell behind.
    pub fn dropped(&self) -> u64 {
        self.inner.dropped.load(Ordering::Relaxed)
    }

    /// The composer notes the signing string of a request it is about to send.
    pub fn note_composer_request(&self, request_id: &str, signing_string: String) {
        let mut notes = self
            .inner
            .composer
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if notes.len() > 1024 {
            notes.clear(); // notes are read within a second; a backlog means nobody reads them
        }
        notes.insert(
            request_id.to_owned(),
            ComposerNote {
                signing_string,
                exchange_id: None,
            },
        );
    }

    /// The capture marks a composer request with its entry number and takes the composer's signing string.
    pub fn claim_composer_request(&self, request_id: &str, exchange_id: u64) -> Option<String> {
        let mut notes = self
            .inner
            .composer
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let note = notes.get_mut(request_id)?;
        note.exchange_id = Some(exchange_id);
        Some(note.signing_string.clone())
    }

    /// The entry number the capture gave the composer's request, once the answer is back.
    pub fn composer_exchange(&self, request_id: &str) -> Option<u64> {
        let mut notes = self
            .inner
            .composer
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        notes.remove(request_id).and_then(|n| n.exchange_id)
    }

    /// Every new entry, live.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Entry>> {
        self.inner.live.subscribe()
    }

    pub fn settings(&self) -> TrafficSettings {
        self.inner
            .settings
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Changes the switches and caps (pruning applies from the next write).
    pub fn set_settings(&self, settings: TrafficSettings) -> CoreResult<TrafficSettings> {
        if settings.max_entries < 100 || settings.max_bytes < 1024 * 1024 {
            return Err(Refusal::format(
                "maxEntries",
                "keep at least 100 entries and 1 MiB (maxEntries >= 100, maxBytes >= 1048576)",
            ));
        }
        self.inner
            .store
            .table::<StoredSettings>()?
            .insert(&StoredSettings {
                id: "settings".into(),
                settings: settings.clone(),
            })?;
        self.inner
            .enabled
            .store(settings.enabled, Ordering::Relaxed);
        *self
            .inner
            .settings
            .write()
            .unwrap_or_else(|p| p.into_inner()) = settings.clone();
        Ok(settings)
    }
}

/// The log as the journal's timeline (see [`TrafficLog::timeline`]).
struct LogTimeline(std::sync::Weak<Inner>);

impl xs2a_core::domain::cause::Timeline for LogTimeline {
    fn reserve(&self) -> Option<u64> {
        let inner = self.0.upgrade()?;
        let log = TrafficLog { inner };
        log.enabled().then(|| log.next_id())
    }

    fn last_given(&self) -> u64 {
        self.0
            .upgrade()
            .map_or(0, |inner| TrafficLog { inner }.last_given())
    }

    fn max_bytes(&self) -> u64 {
        self.0
            .upgrade()
            .map_or(u64::MAX, |inner| TrafficLog { inner }.settings().max_bytes)
    }
}
