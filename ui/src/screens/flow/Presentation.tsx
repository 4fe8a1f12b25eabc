// Presentation mode for trainers: large type for a projector, one message at a time (→ / ← or Page Down /
// Page Up; Home, End; F follows live; Escape leaves), the diagram up to that message, the message's body
// with headers and base64 folded away, and — where the PSU acts — the bank's SCA page as the PSU saw it
// (the recorded page, drawn inert in a shadow root, so nothing is requested again).
import { createEffect, createMemo, createResource, createSignal, For, on, onCleanup, onMount, Show, untrack } from "solid-js";
import type { Exchange } from "../../api/traffic";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { HeadersTable } from "../../components/HeadersTable";
import { valueOf } from "../../lib/resource";
import { foldBase64, presentBody } from "./fold";
import { PagePreview } from "./PagePreview";
import type { Layout, PlacedMessage } from "./layout";
import { LANES } from "./layout";
import { SequenceDiagram } from "./SequenceDiagram";

/** The diagram's size on the projector. */
const SCALE = 1.25;

const LANE_TITLE = Object.fromEntries(LANES.map((l) => [l.id, l.title]));

export interface PresentationProps {
  title: string;
  layout: Layout;
  start?: number;
  onClose: () => void;
}

/** The SCA page message to show beside the diagram at `index`: the PSU's latest page view up to there. */
export function pageAt(messages: readonly PlacedMessage[], index: number): PlacedMessage | null {
  const current = messages[index];
  if (!current || (current.from !== "psu" && current.to !== "psu")) return null;
  for (let i = index; i >= 0; i--) {
    const m = messages[i] as PlacedMessage;
    if (m.pageUrl) return m;
  }
  return null;
}

function isHtml(ex: Exchange): boolean {
  return ex.response.headers.some(([n, v]) => n.toLowerCase() === "content-type" && v.includes("html"));
}

export function Presentation(props: PresentationProps) {
  const wb = useWorkbench();
  const count = () => props.layout.messages.length;
  // Where to start is read once: the trainer moves on from there.
  const start = untrack(() => props.start);
  const [index, setIndex] = createSignal(Math.min(start ?? 0, Math.max(0, untrack(count) - 1)));
  const [follow, setFollow] = createSignal(start === undefined);
  const current = () => props.layout.messages[index()] ?? null;

  const go = (i: number, keepFollow = false) => {
    setIndex(Math.max(0, Math.min(count() - 1, i)));
    if (!keepFollow) setFollow(false);
  };

  // Follow live: a new message moves the view to it.
  createEffect(
    on(count, (n) => {
      if (follow() && n > 0) setIndex(n - 1);
    }),
  );

  const [exchange] = createResource(
    () => (current()?.kind === "event" ? null : current()?.entryId),
    (id) => wb.client.traffic.entry(id) as Promise<Exchange>,
  );
  const page = createMemo(() => pageAt(props.layout.messages, index()));
  const [pageExchange] = createResource(
    () => page()?.entryId,
    (id) => wb.client.traffic.entry(id) as Promise<Exchange>,
  );
  const pageHtml = () => {
    const ex = valueOf(pageExchange);
    return ex && isHtml(ex) && ex.response.body && !ex.response.bodyBase64 ? ex.response.body : null;
  };
  const body = () => {
    const ex = valueOf(exchange);
    const m = current();
    if (!ex || !m || ex.id !== m.entryId) return "";
    const message = m.kind === "request" ? ex.request : ex.response;
    if (message.bodyBase64) return `«binary, ${message.bodyBytes} bytes»`;
    if (ex.area === "sca-page" && m.kind === "response") return "";
    return presentBody(message.body ?? null);
  };
  const headers = () => {
    const ex = valueOf(exchange);
    const m = current();
    if (!ex || !m || ex.id !== m.entryId) return [];
    return m.kind === "request" ? ex.request.headers : ex.response.headers;
  };

  let root!: HTMLDivElement;
  let diagram!: HTMLDivElement;
  // Keep the current message in view as the trainer steps through a long journey.
  createEffect(
    on(index, (i) => {
      const key = props.layout.messages[i]?.key;
      const el = key ? diagram.querySelector(`g.message[data-key="${key}"]`) : null;
      if (el && "scrollIntoView" in el) el.scrollIntoView({ block: "center", inline: "nearest" });
    }),
  );

  onMount(() => {
    root.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLElement && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA")) return;
      const keys: Record<string, () => void> = {
        ArrowRight: () => go(index() + 1),
        ArrowDown: () => go(index() + 1),
        PageDown: () => go(index() + 1),
        " ": () => go(index() + 1),
        ArrowLeft: () => go(index() - 1),
        ArrowUp: () => go(index() - 1),
        PageUp: () => go(index() - 1),
        Home: () => go(0),
        End: () => {
          setFollow(true);
          go(count() - 1, true);
        },
        f: () => setFollow((f) => !f),
        Escape: () => props.onClose(),
      };
      const action = keys[e.key];
      if (!action) return;
      e.preventDefault();
      e.stopPropagation();
      action();
    };
    document.addEventListener("keydown", onKey, true);
    onCleanup(() => document.removeEventListener("keydown", onKey, true));
  });

  return (
    <div class="presentation" role="dialog" aria-modal="true" aria-label="Presentation" tabIndex={-1} ref={root}>
      <header class="presentation-head">
        <h2>{props.title}</h2>
        <p class="presentation-count" role="status" aria-live="polite">
          {count() === 0 ? "No messages yet" : `${index() + 1} / ${count()}`}
          {follow() ? " · following live" : ""}
        </p>
        <div class="actions">
          <Button onClick={() => go(index() - 1)} aria-label="Previous message" disabled={index() <= 0}>
            ←
          </Button>
          <Button onClick={() => go(index() + 1)} aria-label="Next message" disabled={index() >= count() - 1}>
            →
          </Button>
          <Button aria-pressed={follow()} onClick={() => setFollow((f) => !f)}>
            Follow live
          </Button>
          <Button onClick={() => props.onClose()}>Leave (Esc)</Button>
        </div>
      </header>
      <Show when={current()}>
        {(m) => (
          <p class={`presentation-message tone-${m().tone}`} aria-label="Current message">
            <span class="presentation-lanes">
              {LANE_TITLE[m().from]} → {LANE_TITLE[m().to]}
            </span>
            <strong>{m().label}</strong>
            <Show when={m().kind === "event" && m().status}>
              <span class="presentation-status">{m().status}</span>
            </Show>
          </p>
        )}
      </Show>
      <div class="presentation-body" classList={{ "with-page": page() !== null }}>
        <div class="presentation-diagram" ref={diagram}>
          {/* The lane titles stay in view (sticky) however far down the journey the trainer is. */}
          <div class="presentation-lane-titles" style={{ width: `${props.layout.width * SCALE}px` }} aria-hidden="true">
            <For each={props.layout.lanes}>{(lane) => <span style={{ left: `${lane.x * SCALE}px` }}>{lane.title}</span>}</For>
          </div>
          <SequenceDiagram layout={props.layout} current={index()} onSelect={(i) => go(i)} scale={SCALE} />
        </div>
        <Show when={page()}>
          <section class="presentation-page" aria-label="The PSU's SCA page">
            <h3>What the PSU sees</h3>
            <Show
              when={pageHtml()}
              fallback={<p class="hint">The page {page()?.pageUrl} (not recorded as HTML).</p>}
            >
              {(html) => <PagePreview title="SCA page" html={html()} />}
            </Show>
          </section>
        </Show>
        <Show when={body()}>
          <pre class="presentation-json" aria-label="Message body">{body()}</pre>
        </Show>
        <Show when={headers().length > 0}>
          <details class="presentation-headers">
            <summary>Headers ({headers().length})</summary>
            <HeadersTable headers={headers().map(([n, v]) => [n, foldBase64(v)] as [string, string])} label="Headers" />
          </details>
        </Show>
      </div>
      <p class="hint">→ next · ← back · Home / End · F follow live · Esc leave</p>
    </div>
  );
}
