//! The traffic log behind the workbench's inspector and flow view (docs/traffic-api.md): every request
//! that reaches the port becomes an exchange, and batch runs, payment status changes and clock moves are
//! events on the same timeline. The request path only hands a captured exchange to a channel; one writer
//! thread numbers nothing twice, classifies entries into journeys, stores them in batches (durable across
//! restarts, like every write), prunes the oldest beyond the caps, and announces each entry live.

pub mod chunks;
pub mod codec;
pub mod har;
pub mod journeys;
pub mod model;
pub mod raw;
pub mod schema;
pub mod segment;
pub mod shelf;
#[cfg(test)]
mod storage_tests;
pub mod store;
#[cfg(test)]
mod tests;

use crate::events::Events;
use crate::refusal::{CoreResult, Refusal};
use crate::store::{Record, Store};
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

/// How many captured entries may wait for the writer; beyond, new ones are dropped (and counted) rather
/// than slowing requests down.
const QUEUE: usize = 16_384;
/// The most entries the writer stores in one write.
const BATCH: usize = 512;
/// How long the writer lets entries gather after the first of a batch arrives.
const GATHER: Duration = Duration::from_millis(2);

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

enum Pending {
    Exchange(Capture),
    /// Answered once everything queued before it is stored (read-your-writes for one entry).
    Barrier(Waiter),
    Event {
        /// The number given out already (an event the change journal recorded writes under).
        id: Option<u64>,
        at: OffsetDateTime,
        event: String,
        data: serde_json::Value,
    },
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
    live: broadcast::Sender<Entry>,
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
            .spawn(move || write_loop(writer, receiver))
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
    pub fn timeline(&self) -> std::sync::Arc<dyn crate::store::journal::cause::Timeline> {
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
        let handle =
            move |received: Result<crate::events::Event, broadcast::error::RecvError>| -> bool {
                match received {
                    Ok(event)
                        if matches!(
                            event.kind,
                            "batch.run"
                                | "payment.status"
                                | "sca.step"
                                | "clock"
                                | "state.change"
                                | "rewind"
                        ) =>
                    {
                        let Some(inner) = log.upgrade() else {
                            return false;
                        };
                        TrafficLog { inner }.record_numbered_event(
                            event.entry,
                            event.at,
                            event.kind,
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
            self.send(Pending::Event {
                id,
                at,
                event: event.to_owned(),
                data,
            });
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
    pub fn subscribe(&self) -> broadcast::Receiver<Entry> {
        self.inner.live.subscribe()
    }

    /// The kept entries after `id`, oldest first, at most `limit` (a reconnecting stream).
    pub fn after(&self, id: u64, limit: usize) -> CoreResult<Vec<Entry>> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let shelf = self.inner.shelf.read().unwrap_or_else(|p| p.into_inner());
        let mut found: Vec<Entry> = Vec::new();
        for (info, min_from_here) in shelf.after(id) {
            if found.len() >= limit {
                found.sort_unstable_by_key(Entry::id);
                found.truncate(limit);
                if found[limit - 1].id() < min_from_here {
                    break;
                }
            }
            read_segment(&self.inner, info, |view| {
                for entry in view.entries.iter().filter(|e| e.id > id) {
                    found.push(view.summary(entry)?);
                }
                Ok(())
            })?;
        }
        found.sort_unstable_by_key(Entry::id);
        found.truncate(limit);
        Ok(found)
    }

    /// The newest entries before `before` that `keep` accepts, at most `limit`, newest first.
    pub fn page(
        &self,
        before: Option<u64>,
        limit: usize,
        keep: impl Fn(&Entry) -> bool,
    ) -> CoreResult<Vec<Entry>> {
        let before = before.unwrap_or(u64::MAX);
        let newest_first = |found: &mut Vec<Entry>| {
            found.sort_unstable_by_key(|e| std::cmp::Reverse(e.id()));
            found.truncate(limit);
        };
        let shelf = self.inner.shelf.read().unwrap_or_else(|p| p.into_inner());
        let mut found: Vec<Entry> = Vec::with_capacity(limit);
        for shelved in shelf.segments().rev() {
            if limit == 0 {
                break;
            }
            if shelved.info.min >= before {
                continue;
            }
            if found.len() >= limit {
                newest_first(&mut found);
                if found[limit - 1].id() > shelved.max_so_far {
                    break;
                }
            }
            read_segment(&self.inner, shelved.info, |view| {
                for entry in view.entries.iter().rev().filter(|e| e.id < before) {
                    let summary = view.summary(entry)?;
                    if keep(&summary) {
                        found.push(summary);
                    }
                }
                Ok(())
            })?;
        }
        newest_first(&mut found);
        Ok(found)
    }

    /// One entry whole: the exchange, or the event.
    pub fn get(&self, id: u64) -> CoreResult<Option<Result<Exchange, EventEntry>>> {
        let shelf = self.inner.shelf.read().unwrap_or_else(|p| p.into_inner());
        let mut whole = None;
        for info in shelf.holding(id) {
            read_segment(&self.inner, info, |view| {
                if let Some(entry) = view.entries.iter().find(|e| e.id == id) {
                    whole = Some(view.whole(entry)?);
                }
                Ok(())
            })?;
            if whole.is_some() {
                break;
            }
        }
        Ok(whole)
    }

    /// The kept exchanges whose summary `keep` accepts, whole and oldest first: the newest `limit` of
    /// them, and whether more matched. Each segment is read at most twice (the conformance report grades
    /// thousands of exchanges, where [`TrafficLog::get`] would read a segment per exchange).
    pub fn exchanges_where(
        &self,
        keep: impl Fn(&ExchangeSummary) -> bool,
        limit: usize,
    ) -> CoreResult<(Vec<Exchange>, bool)> {
        let infos: Vec<SegmentInfo> = {
            let shelf = self.inner.shelf.read().unwrap_or_else(|p| p.into_inner());
            shelf.segments().map(|s| s.info).collect()
        };
        let mut ids = Vec::new();
        for info in &infos {
            read_segment(&self.inner, *info, |view| {
                for entry in &view.entries {
                    if let Entry::Exchange(summary) = view.summary(entry)? {
                        if keep(&summary) {
                            ids.push(summary.id);
                        }
                    }
                }
                Ok(())
            })?;
        }
        ids.sort_unstable();
        let truncated = ids.len() > limit;
        let wanted: std::collections::HashSet<u64> = ids[ids.len().saturating_sub(limit)..]
            .iter()
            .copied()
            .collect();
        let mut found = Vec::with_capacity(wanted.len());
        for info in infos
            .iter()
            .filter(|i| wanted.iter().any(|id| (i.min..=i.max).contains(id)))
        {
            read_segment(&self.inner, *info, |view| {
                for entry in view.entries.iter().filter(|e| wanted.contains(&e.id)) {
                    if let Ok(exchange) = view.whole(entry)? {
                        found.push(exchange);
                    }
                }
                Ok(())
            })?;
        }
        found.sort_by_key(|e: &Exchange| e.summary.id);
        Ok((found, truncated))
    }

    /// The journeys, the most recently active first.
    pub fn journeys(&self, limit: usize) -> Vec<Journey> {
        let index = self.inner.index.lock().unwrap_or_else(|p| p.into_inner());
        let mut all: Vec<Journey> = index.journeys.values().cloned().collect();
        all.sort_by(|a, b| b.last_at.cmp(&a.last_at).then(b.id.cmp(&a.id)));
        all.truncate(limit);
        all
    }

    pub fn journey(&self, id: &str) -> Option<Journey> {
        let index = self.inner.index.lock().unwrap_or_else(|p| p.into_inner());
        index.journeys.get(id).cloned()
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

impl crate::store::journal::cause::Timeline for LogTimeline {
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

/// The writer: rebuilds the journey index from what is kept, then stores what arrives, in batches.
fn write_loop(inner: std::sync::Weak<Inner>, receiver: Receiver<Pending>) {
    if let Some(inner) = inner.upgrade() {
        if let Err(error) = rebuild_index(&inner) {
            tracing::error!(%error, "the traffic log's journeys could not be rebuilt");
        }
    }
    while let Ok(first) = receiver.recv() {
        let mut batch = Vec::new();
        let mut waiters = Vec::new();
        fn take(pending: Pending, batch: &mut Vec<Pending>, waiters: &mut Vec<Waiter>) {
            match pending {
                Pending::Barrier(waiter) => waiters.push(waiter),
                other => batch.push(other),
            }
        }
        take(first, &mut batch, &mut waiters);
        // Under load, let entries gather for a moment and then take them all without waiting: a writer
        // that blocked on the queue for each one would be woken once per request, and those wake-ups cost
        // the request path more than the writing. A barrier ends the batch: its waiter wants what came
        // before it, now.
        if waiters.is_empty() {
            std::thread::sleep(GATHER);
        }
        while batch.len() < BATCH && waiters.is_empty() {
            match receiver.try_recv() {
                Ok(next) => take(next, &mut batch, &mut waiters),
                Err(_) => break,
            }
        }
        let Some(inner) = inner.upgrade() else {
            return;
        };
        if !batch.is_empty() {
            if let Err(error) = write_batch(&inner, batch) {
                tracing::error!(%error, "traffic log entries could not be stored");
            }
        }
        for waiter in waiters {
            let _ = waiter.send(());
        }
    }
}

/// Reads the segment `info` names and hands its live entries to `read` (those below `info.min` were
/// pruned). A segment pruned since `info` was read is skipped; so is one whose bytes did not survive (a
/// power cut can leave an index record whose chunk never reached the disk): the rest of the log stays
/// readable, and the loss is logged.
fn read_segment(
    inner: &Inner,
    info: SegmentInfo,
    read: impl FnOnce(&segment::SegmentView) -> Result<(), String>,
) -> CoreResult<()> {
    let bytes = match chunks::read(&inner.chunk_dir, info.location()) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(error) => {
            tracing::warn!(%error, segment = info.seq, "a traffic log segment is unreadable; skipped");
            return Ok(());
        }
    };
    let mut view = match segment::SegmentView::parse(&bytes) {
        Ok(view) => view,
        Err(error) => {
            tracing::warn!(%error, segment = info.seq, "a traffic log segment is damaged; skipped");
            return Ok(());
        }
    };
    view.entries.retain(|e| e.id >= info.min);
    read(&view).map_err(damaged)
}

fn damaged(reason: String) -> Refusal {
    Refusal::internal(format!("a traffic log segment is damaged: {reason}"))
}

/// Rebuilds the journey index from every stored entry, oldest segment first.
fn rebuild_index(inner: &Inner) -> CoreResult<()> {
    let infos: Vec<SegmentInfo> = inner
        .shelf
        .read()
        .unwrap_or_else(|p| p.into_inner())
        .segments()
        .map(|s| s.info)
        .collect();
    for info in infos {
        read_segment(inner, info, |view| {
            let mut index = inner.index.lock().unwrap_or_else(|p| p.into_inner());
            for entry in &view.entries {
                match view.whole(entry)? {
                    Ok(whole) => {
                        let mut summary = whole.summary.clone();
                        let request = (summary.method == "POST")
                            .then(|| json_of(&whole.request))
                            .flatten();
                        let response = whole
                            .response
                            .body
                            .as_deref()
                            .filter(|b| journeys::worth_parsing(b.as_bytes()))
                            .and_then(|_| json_of(&whole.response));
                        index.classify_exchange(
                            &mut summary,
                            Bodies {
                                request: request.as_ref(),
                                response: response.as_ref(),
                            },
                        );
                        index.count(&Entry::Exchange(summary));
                    }
                    Err(event) => {
                        index.classify_event(&event.event, &event.data);
                        index.count(&Entry::Event(event));
                    }
                }
            }
            Ok(())
        })?;
    }
    Ok(())
}

fn json_of(message: &model::Message) -> Option<serde_json::Value> {
    let body = message.body.as_deref().filter(|_| !message.body_base64)?;
    serde_json::from_str(body).ok()
}

/// Stores one batch of the writer as segments, announces its entries, and prunes.
fn write_batch(inner: &Inner, batch: Vec<Pending>) -> CoreResult<()> {
    let mut captured = Vec::with_capacity(batch.len());
    let mut events = Vec::new();
    {
        let mut index = inner.index.lock().unwrap_or_else(|p| p.into_inner());
        for pending in batch {
            match pending {
                Pending::Exchange(capture) => {
                    let mut exchange = capture();
                    // The request's body is read only where it names what the journey is (a creation).
                    let request = (exchange.summary.method == "POST")
                        .then(|| {
                            exchange
                                .request
                                .body
                                .as_deref()
                                .and_then(|b| serde_json::from_slice(b).ok())
                        })
                        .flatten();
                    let answer = exchange.answer.take();
                    index.classify_exchange(
                        &mut exchange.summary,
                        Bodies {
                            request: request.as_ref(),
                            response: answer.as_ref(),
                        },
                    );
                    // Counted into its journeys without a copy.
                    let entry = Entry::Exchange(exchange.summary);
                    index.count(&entry);
                    let Entry::Exchange(summary) = entry else {
                        unreachable!("made above")
                    };
                    exchange.summary = summary;
                    captured.push(exchange);
                }
                Pending::Event {
                    id,
                    at,
                    event,
                    data,
                } => {
                    let (resources, journeys) = index.classify_event(&event, &data);
                    let event = EventEntry {
                        id: id.unwrap_or_else(|| inner.next_id.fetch_add(1, Ordering::SeqCst)),
                        at,
                        event,
                        data,
                        resources,
                        journeys,
                    };
                    let entry = Entry::Event(event);
                    index.count(&entry);
                    let Entry::Event(event) = entry else {
                        unreachable!("made above")
                    };
                    events.push(event);
                }
                Pending::Barrier(_) => unreachable!("the writer answers barriers itself"),
            }
        }
    }
    let mut items: Vec<Item> = Vec::with_capacity(captured.len() + events.len());
    items.extend(captured.iter().map(|c| Item::Captured(c, c.weight())));
    // An event's weight is its data's size, roughly, plus the same allowance as an exchange's summary.
    items.extend(
        events
            .iter()
            .map(|e| Item::Event(e, e.data.to_string().len() as u64 + 256)),
    );
    let seq = inner
        .shelf
        .write()
        .unwrap_or_else(|p| p.into_inner())
        .next_seq();
    let segment = Segment::build(seq, items);
    // The bytes first, then the index record that points at them: a crash between leaves bytes nobody
    // indexed, which the next start deletes.
    let location = inner
        .chunks
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .append(&segment.bytes)
        .map_err(Refusal::internal)?;
    let info = segment.info(location);
    inner.store.table::<SegmentInfo>()?.insert(&info)?;
    inner
        .shelf
        .write()
        .unwrap_or_else(|p| p.into_inner())
        .push(info);
    // Announced once stored, and copied only when someone listens: a listener that arrives later finds
    // them stored (the stream reads what is stored before it follows what is announced).
    if inner.live.receiver_count() > 0 {
        let mut entries: Vec<Entry> = captured
            .iter()
            .map(|c| Entry::Exchange(c.summary.clone()))
            .chain(events.iter().cloned().map(Entry::Event))
            .collect();
        entries.sort_by_key(Entry::id);
        for entry in entries {
            let _ = inner.live.send(entry);
        }
    }
    prune(inner)
}

/// Once the log is over either cap, removes the oldest entries until it is 1/64 of each cap below it:
/// whole segments, oldest first, and the oldest entries of the last one touched. A full log then prunes
/// once every ~1.5 % of its capacity instead of on every write.
fn prune(inner: &Inner) -> CoreResult<()> {
    let settings = inner
        .settings
        .read()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    let over = |(entries, bytes): (u64, u64), entries_cap: u64, bytes_cap: u64| {
        entries > entries_cap || bytes > bytes_cap
    };
    let shelf = || inner.shelf.read().unwrap_or_else(|p| p.into_inner());
    if !over(shelf().totals(), settings.max_entries, settings.max_bytes) {
        return Ok(());
    }
    let entries_goal = settings.max_entries - settings.max_entries / 64;
    let bytes_goal = settings.max_bytes - settings.max_bytes / 64;
    let index_records = inner.store.table::<SegmentInfo>()?;
    while over(shelf().totals(), entries_goal, bytes_goal) {
        let Some(oldest) = shelf().oldest() else {
            return Ok(());
        };
        // Which of its entries go: the oldest, until both totals are at their goals.
        let (mut entries, mut bytes) = shelf().totals();
        let mut gone = Vec::new();
        let mut gone_weight = 0;
        let mut gone_count = 0;
        let mut rest = None;
        read_segment(inner, oldest, |view| {
            for entry in &view.entries {
                if entries <= entries_goal && bytes <= bytes_goal {
                    rest = Some(SegmentInfo {
                        min: entry.id,
                        count: oldest.count - gone_count,
                        weight: oldest.weight.saturating_sub(gone_weight),
                        ..oldest
                    });
                    break;
                }
                entries -= 1;
                bytes = bytes.saturating_sub(entry.weight);
                gone_weight += entry.weight;
                gone_count += 1;
                if entry.in_journey {
                    gone.push(view.summary(entry)?);
                }
            }
            Ok(())
        })?;
        match rest {
            Some(rest) => index_records.insert(&rest)?,
            None => {
                index_records.remove(&oldest.key())?;
                inner
                    .chunks
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .release(oldest.location())
                    .map_err(Refusal::internal)?;
            }
        }
        inner
            .shelf
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .replace_oldest(rest);
        let mut index = inner.index.lock().unwrap_or_else(|p| p.into_inner());
        for entry in &gone {
            for journey in entry.journeys() {
                index.forget(journey);
            }
        }
    }
    // What the pruned entries changed goes with them: the sandbox can no longer return to before them.
    if let (Some(journal), Some(oldest)) = (inner.store.journal(), shelf().oldest()) {
        journal.forget_before(oldest.min)?;
    }
    Ok(())
}
