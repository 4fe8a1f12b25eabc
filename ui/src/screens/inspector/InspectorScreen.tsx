// Screen 5, Inspector: every exchange with the sandbox — the composer's and any external TPP's — as a live,
// virtualised list (the traffic log's pages, then its stream, resumed after a reconnect), filters mapped to
// the API's query, and the chosen exchange opened beside it (ExchangeView); or, beside it, a pasted request
// checked by the gate (PastedCheck). "Clear traffic" empties the log after a confirmation.
import { keyLabel } from "../../app/shortcuts";
import { createEffect, createSignal, on, onCleanup, onMount, Show } from "solid-js";
import type { ConnectionState } from "../../api/eventSource";
import { connectTraffic, matchesFilter } from "../../api/traffic";
import type { Entry, TrafficFilter, TrafficResource } from "../../api/traffic";
import { useEvent, useWorkbench } from "../../app/context";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { PastedCheck } from "./PastedCheck";
import { Button } from "../../components/Button";
import { ErrorMessages } from "../../components/ErrorMessages";
import { createDebounced } from "../../lib/debounce";
import { ExchangeView } from "./ExchangeView";
import { createFeed } from "./feed";
import { TrafficList } from "./TrafficList";
import { EmptyState } from "../../components/EmptyState";
import { count } from "../../lib/format";

const PAGE = 500;
/** Older pages as the user scrolls up: the API's largest. */
const OLDER_PAGE = 1000;

function listHeight(): number {
  return typeof window === "undefined" ? 560 : Math.max(320, window.innerHeight - 330);
}

function Filters(props: { filter: TrafficFilter; onChange: (f: TrafficFilter) => void }) {
  const set = (patch: Partial<TrafficFilter>) => props.onChange({ ...props.filter, ...patch });
  return (
    <form class="traffic-filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
      <label class="field">
        <span>Search the log</span>
        {/* The service looks in the summary, the ids a TPP has in its own logs (X-Request-ID, TPP-Session-ID,
            PSU-ID, PSU-Corporate-ID, Consent-ID) and the bodies: docs/traffic-api.md. */}
        <input
          type="search"
          placeholder="X-Request-ID, TPP-Session-ID, PSU-ID, an id, text"
          value={props.filter.q ?? ""}
          onInput={(e) => set({ q: e.currentTarget.value })}
        />
      </label>
      <label class="field">
        <span>TPP</span>
        <input value={props.filter.tpp ?? ""} placeholder="organisation id" onInput={(e) => set({ tpp: e.currentTarget.value })} />
      </label>
      <label class="field">
        <span>PSU</span>
        <input value={props.filter.psu ?? ""} onInput={(e) => set({ psu: e.currentTarget.value })} />
      </label>
      <label class="field">
        <span>Status</span>
        <select
          value={props.filter.status ?? ""}
          onChange={(e) => set({ status: e.currentTarget.value as TrafficFilter["status"] })}
        >
          <option value="">any</option>
          <option value="2xx">2xx</option>
          <option value="3xx">3xx</option>
          <option value="4xx">4xx</option>
          <option value="5xx">5xx</option>
        </select>
      </label>
      <label class="field">
        <span>Resource</span>
        <input
          value={props.filter.resource ?? ""}
          placeholder="payment:<id>"
          onInput={(e) => set({ resource: e.currentTarget.value })}
        />
      </label>
      <label class="inline">
        <input type="checkbox" checked={props.filter.failed ?? false} onChange={(e) => set({ failed: e.currentTarget.checked })} />
        Failed only
      </label>
    </form>
  );
}

export function InspectorScreen() {
  const wb = useWorkbench();
  const feed = createFeed();
  const [filter, setFilter] = createSignal<TrafficFilter>({});
  const [selected, setSelected] = createSignal<number | null>(null);
  /** What the pane beside the list shows: the chosen exchange, or the pasted-request check. */
  const [pane, setPane] = createSignal<"exchange" | "paste">("exchange");
  const [confirmClear, setConfirmClear] = createSignal(false);
  const [clearing, setClearing] = createSignal(false);
  const open = (id: number) => {
    setSelected(id);
    setPane("exchange");
  };
  const [nextBefore, setNextBefore] = createSignal<number | null>(null);
  const [error, setError] = createSignal<unknown>(null);
  const [loading, setLoading] = createSignal(false);
  const [state, setState] = createSignal<ConnectionState>("closed");
  const [height, setHeight] = createSignal(listHeight());
  let generation = 0;

  const reload = async () => {
    const mine = ++generation;
    setLoading(true);
    setError(null);
    try {
      const page = await wb.client.traffic.page(filter(), null, PAGE);
      if (mine !== generation) return;
      feed.reset(page.entries);
      setNextBefore(page.nextBefore ?? null);
    } catch (e) {
      if (mine === generation) setError(e);
    } finally {
      if (mine === generation) setLoading(false);
    }
  };
  const reloadSoon = createDebounced(() => void reload(), 300);

  const older = async () => {
    const before = nextBefore();
    if (before === null || loading()) return;
    const mine = generation;
    setLoading(true);
    try {
      const page = await wb.client.traffic.page(filter(), before, OLDER_PAGE);
      if (mine !== generation) return;
      feed.prepend(page.entries);
      setNextBefore(page.nextBefore ?? null);
    } catch (e) {
      if (mine === generation) setError(e);
    } finally {
      if (mine === generation) setLoading(false);
    }
  };

  /** The log is empty now (this tab cleared it, or another did): nothing of before stays on screen. */
  const emptied = () => {
    generation++;
    feed.reset([]);
    setNextBefore(null);
    setSelected(null);
    setLoading(false);
  };
  useEvent("traffic.cleared", emptied);
  const clear = async () => {
    setClearing(true);
    try {
      const cleared = await wb.client.traffic.clear();
      emptied();
      wb.notify(`Traffic cleared: ${count(cleared.removed, "entry", "entries")} removed`, "success");
      setConfirmClear(false);
    } catch (e) {
      setError(e);
      setConfirmClear(false);
    } finally {
      setClearing(false);
    }
  };

  const changeFilter = (next: TrafficFilter) => {
    setFilter(next);
    reloadSoon();
  };
  const filterResource = (r: TrafficResource) => {
    setFilter({ resource: `${r.kind}:${r.id}` });
    void reload();
  };

  // Another screen asked for a filter (e.g. all exchanges of a resource).
  createEffect(
    on(wb.handoff.inspectorFilter, (f) => {
      if (!f) return;
      setFilter(f);
      void reload();
      wb.handoff.setInspectorFilter(null);
    }),
  );

  // Another screen asked for one exchange (the conformance report's evidence): open it.
  createEffect(
    on(wb.handoff.inspectorExchange, (id) => {
      if (id === null) return;
      open(id);
      wb.handoff.setInspectorExchange(null);
    }),
  );

  onMount(() => {
    const onResize = () => setHeight(listHeight());
    window.addEventListener("resize", onResize);
    onCleanup(() => window.removeEventListener("resize", onResize));
    let stream: { close(): void } | null = null;
    let closed = false;
    void reload().then(() => {
      if (closed || !wb.openSource) return;
      const open = wb.openSource;
      // The stream resumes after the newest entry the page showed, so nothing falls between the two.
      stream = connectTraffic({
        url: wb.client.traffic.streamUrl(),
        after: feed.newestId(),
        create: (url) => open(url),
        onState: setState,
        onEntry: (entry: Entry) => {
          if (matchesFilter(entry, filter())) feed.push(entry);
        },
      });
    });
    onCleanup(() => {
      closed = true;
      stream?.close();
    });
  });

  return (
    <div class="inspector-screen">
      <div class="inspector-list">
        <Filters filter={filter()} onChange={changeFilter} />
        <div class="toolbar">
          <Button disabled={nextBefore() === null} busy={loading()} onClick={() => void older()}>
            Load older
          </Button>
          <Button aria-pressed={pane() === "paste"} onClick={() => setPane(pane() === "paste" ? "exchange" : "paste")}>
            Check a pasted request
          </Button>
          <Button variant="danger" onClick={() => setConfirmClear(true)}>
            Clear traffic…
          </Button>
          <span class="hint" role="status">
            {(feed.version(), count(feed.items.length, "entry", "entries"))} · live: {state()}
          </span>
        </div>
        <ErrorMessages error={error()} title="The traffic log could not be read." />
        <Show
          when={(feed.version(), feed.items.length > 0) || loading()}
          fallback={
            <EmptyState title="No exchanges here yet">
              <p>
                Every request that reaches the sandbox's port appears here as it happens: send one from the Composer
                ({keyLabel("Alt+2")}), or point your own TPP app at the base URL in the header. With filters set, clear them to see
                everything.
              </p>
            </EmptyState>
          }
        >
          <TrafficList feed={feed} height={height()} onOpen={(entry) => open(entry.id)} onNearStart={() => void older()} />
        </Show>
        <p class="hint">
          ↑ ↓ move, Enter opens. The list follows new traffic while it is scrolled to the end; scrolling to the top
          reads older entries.
        </p>
      </div>
      <div class="inspector-detail">
        <Show when={pane() === "exchange"} fallback={<PastedCheck />}>
          <Show
            when={selected()}
            keyed
            fallback={<p class="hint">Choose an exchange to see its verdict, headers and bodies.</p>}
          >
            {(id) => <ExchangeView id={id} onFilterResource={filterResource} />}
          </Show>
        </Show>
      </div>
      <Show when={confirmClear()}>
        <ConfirmDialog
          title="Clear the traffic?"
          message="Every exchange and event of the log goes, with its files on disk, and so do the journeys the Flow view draws from them; the sandbox can no longer rewind to before now. The sandbox's data (customers, accounts, payments, consents) stays as it is. This cannot be undone."
          confirmLabel="Clear traffic"
          busy={clearing()}
          onConfirm={() => void clear()}
          onCancel={() => setConfirmClear(false)}
        />
      </Show>
    </div>
  );
}
