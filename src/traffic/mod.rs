//! The traffic log behind the workbench's inspector and flow view (docs/traffic-api.md): every request
//! that reaches the port becomes an exchange, and batch runs, payment status changes and clock moves are
//! events on the same timeline. The request path only hands a captured exchange to a channel; one writer
//! thread numbers nothing twice, classifies entries into journeys, stores them in batches (durable across
//! restarts, like every write), prunes the oldest beyond the caps, and announces each entry live.

pub mod codec;
pub mod har;
pub mod journeys;
pub mod model;
pub mod store;
#[cfg(test)]
mod tests;

use crate::events::Events;
use crate::refusal::{CoreResult, Refusal};
use crate::store::Store;
use journeys::{Bodies, Index};
use model::{Entry, EventEntry, Exchange, Journey};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;
use store::{StoredEntry, StoredExchange, StoredSettings, Totals, TrafficSettings};
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

/// What a capture builds: the exchange, and its parsed answer when classifying it needs one.
pub struct Captured {
    pub exchange: Exchange,
    pub answer: Option<serde_json::Value>,
    /// The bytes it takes, for the byte cap.
    pub bytes: u64,
}

type Waiter = std::sync::mpsc::SyncSender<()>;

enum Pending {
    Exchange(Capture),
    /// Answered once everything queued before it is stored (read-your-writes for one entry).
    Barrier(Waiter),
    Event {
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
        let last = store
            .table::<StoredEntry>()?
            .last_n(1)?
            .first()
            .map(|e| e.entry.id())
            .unwrap_or(0);
        let (queue, receiver) = sync_channel(QUEUE);
        let inner = Arc::new(Inner {
            store,
            next_id: AtomicU64::new(last + 1),
            enabled: AtomicBool::new(settings.enabled),
            settings: RwLock::new(settings),
            queue,
            index: Mutex::new(Index::default()),
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
        Ok(log)
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
                            "batch.run" | "payment.status" | "sca.step" | "clock"
                        ) =>
                    {
                        let Some(inner) = log.upgrade() else {
                            return false;
                        };
                        TrafficLog { inner }.record_event(event.at, event.kind, event.data);
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
        if self.enabled() {
            self.send(Pending::Event {
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
        Ok(self
            .inner
            .store
            .table::<StoredEntry>()?
            .after(&store::key(id), limit)?
            .into_iter()
            .map(|s| s.entry)
            .collect())
    }

    /// The newest entries before `before` that `keep` accepts, at most `limit`, newest first.
    pub fn page(
        &self,
        before: Option<u64>,
        limit: usize,
        keep: impl Fn(&Entry) -> bool,
    ) -> CoreResult<Vec<Entry>> {
        let mut found = Vec::with_capacity(limit);
        let before = before.map(store::key);
        self.inner
            .store
            .table::<StoredEntry>()?
            .scan_back(before.as_deref(), |stored| {
                if keep(&stored.entry) {
                    found.push(stored.entry);
                }
                found.len() < limit
            })?;
        Ok(found)
    }

    /// One entry whole: the exchange, or the event.
    pub fn get(&self, id: u64) -> CoreResult<Option<Result<Exchange, EventEntry>>> {
        let key = store::key(id);
        if let Some(exchange) = self.inner.store.table::<StoredExchange>()?.get(&key)? {
            return Ok(Some(Ok(exchange.0)));
        }
        Ok(self
            .inner
            .store
            .table::<StoredEntry>()?
            .get(&key)?
            .and_then(|s| match s.entry {
                Entry::Event(e) => Some(Err(e)),
                Entry::Exchange(_) => None,
            }))
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

fn rebuild_index(inner: &Inner) -> CoreResult<()> {
    let entries = inner.store.table::<StoredEntry>()?.list()?;
    let mut index = inner.index.lock().unwrap_or_else(|p| p.into_inner());
    let exchanges = inner.store.table::<StoredExchange>()?;
    for stored in entries {
        match &stored.entry {
            Entry::Exchange(summary) => {
                let Some(whole) = exchanges.get(&store::key(summary.id))? else {
                    continue;
                };
                let mut summary = summary.clone();
                let request = (summary.method == "POST")
                    .then(|| json_of(&whole.0.request))
                    .flatten();
                let response = whole
                    .0
                    .response
                    .body
                    .as_deref()
                    .filter(|b| journeys::worth_parsing(b.as_bytes()))
                    .and_then(|_| json_of(&whole.0.response));
                index.classify_exchange(
                    &mut summary,
                    Bodies {
                        request: request.as_ref(),
                        response: response.as_ref(),
                    },
                );
                index.count(&Entry::Exchange(summary));
            }
            Entry::Event(event) => {
                index.classify_event(&event.event, &event.data);
                index.count(&stored.entry);
            }
        }
    }
    Ok(())
}

fn json_of(message: &model::Message) -> Option<serde_json::Value> {
    let body = message.body.as_deref().filter(|_| !message.body_base64)?;
    serde_json::from_str(body).ok()
}

fn write_batch(inner: &Inner, batch: Vec<Pending>) -> CoreResult<()> {
    let mut entries = Vec::with_capacity(batch.len());
    let mut exchanges = Vec::new();
    let mut sizes: HashMap<u64, u64> = HashMap::new();
    {
        let mut index = inner.index.lock().unwrap_or_else(|p| p.into_inner());
        for pending in batch {
            match pending {
                Pending::Exchange(capture) => {
                    let Captured {
                        mut exchange,
                        answer,
                        bytes,
                    } = capture();
                    // The request's body is read only where it names what the journey is (a creation).
                    let request = (exchange.summary.method == "POST")
                        .then(|| json_of(&exchange.request))
                        .flatten();
                    index.classify_exchange(
                        &mut exchange.summary,
                        Bodies {
                            request: request.as_ref(),
                            response: answer.as_ref(),
                        },
                    );
                    let entry = Entry::Exchange(exchange.summary.clone());
                    index.count(&entry);
                    sizes.insert(exchange.summary.id, bytes);
                    entries.push(entry);
                    exchanges.push(StoredExchange(exchange));
                }
                Pending::Event { at, event, data } => {
                    let (resources, journeys) = index.classify_event(&event, &data);
                    let entry = Entry::Event(EventEntry {
                        id: inner.next_id.fetch_add(1, Ordering::SeqCst),
                        at,
                        event,
                        data,
                        resources,
                        journeys,
                    });
                    index.count(&entry);
                    entries.push(entry);
                }
                Pending::Barrier(_) => unreachable!("the writer answers barriers itself"),
            }
        }
    }
    // An entry's size for the byte cap is what it carries (bodies and headers, counted at capture) plus a
    // fixed allowance for its summary: serialising every exchange once more only to weigh it cost as much
    // as storing it.
    let stored: Vec<StoredEntry> = entries
        .iter()
        .map(|entry| StoredEntry {
            bytes: sizes.get(&entry.id()).copied().unwrap_or(0) + 256,
            entry: entry.clone(),
        })
        .collect();
    let added_bytes: u64 = stored.iter().map(|s| s.bytes).sum();
    inner.store.atomically(|store| -> CoreResult<()> {
        store.table::<StoredEntry>()?.insert_many(&stored)?;
        store.table::<StoredExchange>()?.insert_many(&exchanges)?;
        let totals = store.table::<Totals>()?;
        let mut now = totals.get(Totals::KEY)?.unwrap_or_default();
        now.id = Totals::KEY.into();
        now.entries += stored.len() as u64;
        now.bytes += added_bytes;
        totals.insert(&now)?;
        Ok(())
    })?;
    for entry in entries {
        let _ = inner.live.send(entry);
    }
    prune(inner)
}

/// The most entries one pruning step removes in one commit.
const PRUNE_STEP: usize = 1024;

/// Once the log is over either cap, removes the oldest entries until it is 1/64 of each cap below it,
/// many in one commit: a full log then prunes once every ~1.5 % of its capacity instead of one commit per
/// new entry.
fn prune(inner: &Inner) -> CoreResult<()> {
    let settings = inner
        .settings
        .read()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    let mut totals = inner
        .store
        .table::<Totals>()?
        .get(Totals::KEY)?
        .unwrap_or_default();
    if totals.entries <= settings.max_entries && totals.bytes <= settings.max_bytes {
        return Ok(());
    }
    let entries_goal = settings.max_entries - settings.max_entries / 64;
    let bytes_goal = settings.max_bytes - settings.max_bytes / 64;
    let table = inner.store.table::<StoredEntry>()?;
    while totals.entries > entries_goal || totals.bytes > bytes_goal {
        let wanted = (totals.entries.saturating_sub(entries_goal) as usize).clamp(64, PRUNE_STEP);
        let oldest = table.first_n_with_prefix("", wanted)?;
        if oldest.is_empty() {
            return Ok(());
        }
        let mut gone = Vec::with_capacity(oldest.len());
        for stored in oldest {
            if totals.entries <= entries_goal && totals.bytes <= bytes_goal {
                break;
            }
            totals.entries = totals.entries.saturating_sub(1);
            totals.bytes = totals.bytes.saturating_sub(stored.bytes);
            gone.push(stored);
        }
        let keys: Vec<String> = gone.iter().map(|g| store::key(g.entry.id())).collect();
        totals.id = Totals::KEY.into();
        inner.store.atomically(|store| -> CoreResult<()> {
            store.table::<StoredEntry>()?.delete_many(&keys)?;
            store.table::<StoredExchange>()?.delete_many(&keys)?;
            store.table::<Totals>()?.insert(&totals)?;
            Ok(())
        })?;
        let mut index = inner.index.lock().unwrap_or_else(|p| p.into_inner());
        for stored in &gone {
            for journey in stored.entry.journeys() {
                index.forget(journey);
            }
        }
    }
    Ok(())
}
