//! The traffic log's writer thread: rebuilds the journey index from what is kept at start, then takes
//! what the request path queued, in batches: numbers and classifies each entry, stores the batch as
//! segments, announces its entries live, and prunes the oldest beyond the caps.

use super::reading::read_segment;
use super::*;
use std::sync::mpsc::RecvTimeoutError;

/// The most entries the writer stores in one write.
const BATCH: usize = 512;
/// How long the writer lets entries gather after the first of a batch arrives.
const GATHER: Duration = Duration::from_millis(2);
/// How long the writer waits with nothing to store before it hands back what sled retired on its thread
/// (`xs2a_core::store::release_deferred_frees`).
const IDLE: Duration = Duration::from_secs(1);

/// The writer: rebuilds the journey index from what is kept, then stores what arrives, in batches.
pub(super) fn write_loop(inner: std::sync::Weak<Inner>, receiver: Receiver<Pending>) {
    if let Some(inner) = inner.upgrade() {
        if let Err(error) = rebuild_index(&inner) {
            tracing::error!(%error, "the traffic log's journeys could not be rebuilt");
        }
    }
    // Once it has stored something, the writer waits at most `IDLE` before releasing; after that it
    // sleeps until the next entry, so an idle service has no thread waking up for nothing.
    let mut stored_since_release = false;
    loop {
        let next = if stored_since_release {
            receiver.recv_timeout(IDLE)
        } else {
            receiver.recv().map_err(|_| RecvTimeoutError::Disconnected)
        };
        let first = match next {
            Ok(first) => first,
            Err(RecvTimeoutError::Timeout) => {
                xs2a_core::store::release_deferred_frees();
                stored_since_release = false;
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        stored_since_release = true;
        let mut batch = Vec::new();
        let mut waiters = Vec::new();
        let mut clears = Vec::new();
        fn take(
            pending: Pending,
            batch: &mut Vec<Pending>,
            waiters: &mut Vec<Waiter>,
            clears: &mut Vec<ClearAsker>,
        ) {
            match pending {
                Pending::Barrier(waiter) => waiters.push(waiter),
                Pending::Clear(asker) => clears.push(asker),
                other => batch.push(other),
            }
        }
        take(first, &mut batch, &mut waiters, &mut clears);
        // Under load, let entries gather for a moment and then take them all without waiting: a writer
        // that blocked on the queue for each one would be woken once per request, and those wake-ups cost
        // the request path more than the writing. A barrier ends the batch: its waiter wants what came
        // before it, now. So does a clear, which must not take away what came after it.
        if waiters.is_empty() && clears.is_empty() {
            std::thread::sleep(GATHER);
        }
        while batch.len() < BATCH && waiters.is_empty() && clears.is_empty() {
            match receiver.try_recv() {
                Ok(next) => take(next, &mut batch, &mut waiters, &mut clears),
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
        for asker in clears {
            let _ = asker.send(super::clearing::clear(&inner));
        }
        // Let go of the log before a waiter hears: one that closes the store next (App::close) must not
        // find this thread still holding the log, and through it the store, open.
        drop(inner);
        for waiter in waiters {
            let _ = waiter.send(());
        }
    }
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
                        index.classify_event(&event.event, event.at, &event.data);
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
                Pending::Event(pending) => {
                    let PendingEvent {
                        id,
                        at,
                        event,
                        data,
                    } = *pending;
                    let (resources, journeys) = index.classify_event(&event, at, &data);
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
                Pending::Barrier(_) | Pending::Clear(_) => {
                    unreachable!("the writer answers barriers and clears itself")
                }
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
            let _ = inner.live.send(Arc::new(entry));
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
