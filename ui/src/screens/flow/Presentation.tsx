// Presentation mode for trainers, made for a projector (1280x720 and up): one message at a time (→ / ← or
// Page Down / Page Up; Home, End; F follows live; Escape leaves). The title, the "N / M" counter and the
// current message stay at the top; below, the diagram up to that message is drawn to fit its column (all
// four lanes, text at least 16 px and growing with the room, nothing scrolling sideways) and scrolls only
// down, keeping the message in view; beside it, the bank's SCA page as the PSU saw it where the PSU acts
// (the recorded page, drawn inert in a shadow root, so nothing is requested again), else the message's body
// with headers and base64 folded away, and what the step changed in the sandbox's state. "Restart from this
// step" rewinds the sandbox to before the step and re-runs the journey from there (docs/rewind.md). Leaving
// gives the focus back to the control that opened it.
import { createEffect, createMemo, createResource, createSignal, For, on, onCleanup, onMount, Show, untrack } from "solid-js";
import type { Exchange } from "../../api/traffic";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ErrorMessages } from "../../components/ErrorMessages";
import { createActions } from "../../lib/action";
import { StateChanges } from "../inspector/StateChanges";
import { HeadersTable } from "../../components/HeadersTable";
import { valueOf } from "../../lib/resource";
import { createSize } from "../../lib/size";
import { fitLayout } from "./fit";
import { foldBase64, presentBody } from "./fold";
import { measureLabel } from "./measure";
import { PagePreview } from "./PagePreview";
import type { Message, PlacedMessage } from "./layout";
import { LANES } from "./layout";
import { SequenceDiagram } from "./SequenceDiagram";

const LANE_TITLE = Object.fromEntries(LANES.map((l) => [l.id, l.title]));

export interface PresentationProps {
  title: string;
  messages: readonly Message[];
  start?: number;
  onClose: () => void;
  /** The journey shown, for "Restart from this step". */
  journeyId?: string | null;
  /** Called once a restart began (the re-run makes a new journey). */
  onRestarted?: () => void;
  /** Where the focus goes on leaving when the control that opened it is gone. */
  returnFocus?: HTMLElement | null;
}

/** The SCA page message to show beside the diagram at `index`: the PSU's latest page view up to there. */
export function pageAt(messages: readonly Message[], index: number): Message | null {
  const current = messages[index];
  if (!current || (current.from !== "psu" && current.to !== "psu")) return null;
  for (let i = index; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.pageUrl) return m;
  }
  return null;
}

function isHtml(ex: Exchange): boolean {
  return ex.response.headers.some(([n, v]) => n.toLowerCase() === "content-type" && v.includes("html"));
}

export function Presentation(props: PresentationProps) {
  const wb = useWorkbench();
  const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  const count = () => props.messages.length;
  // Where to start is read once: the trainer moves on from there.
  const start = untrack(() => props.start);
  const [index, setIndex] = createSignal(Math.min(start ?? 0, Math.max(0, untrack(count) - 1)));
  const [follow, setFollow] = createSignal(start === undefined);
  // The diagram's area (inside its scrollbar's gutter): the layout is made for it, width and height.
  const [room, track] = createSize({ width: 720, height: 480 });
  const [restarting, setRestarting] = createSignal(false);
  const { busy: restartBusy, error: restartError, run: act } = createActions();
  const restart = (from: number) =>
    act("restart", async () => {
      const journey = props.journeyId;
      if (!journey) return;
      const answer = await wb.client.rewind.restart(journey, from);
      setRestarting(false);
      wb.notify(`Restarted: ${answer.steps.length} steps re-run as ${answer.persona}`, "success");
      props.onRestarted?.();
    });
  // The lane titles are drawn above the scrolling diagram, so the diagram itself needs no header's room;
  // labels are measured as the browser draws them, so none is cut at the diagram's edges.
  const model = createMemo(() => fitLayout(props.messages, room(), measureLabel));
  const current = (): PlacedMessage | null => model().messages[index()] ?? null;

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
  const page = createMemo(() => pageAt(props.messages, index()));
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
    if (!ex || !m || ex.id !== m.entryId || m.key.endsWith(":back")) return "";
    const message = m.kind === "request" ? ex.request : ex.response;
    if (message.bodyBase64) return `«binary, ${message.bodyBytes} bytes»`;
    if (ex.area === "sca-page" && m.kind === "response") return "";
    return presentBody(message.body ?? null);
  };
  const headers = () => {
    const ex = valueOf(exchange);
    const m = current();
    if (!ex || !m || ex.id !== m.entryId || m.key.endsWith(":back")) return [];
    return m.kind === "request" ? ex.request.headers : ex.response.headers;
  };
  // The side column is always there (what it shows changes), so the diagram keeps its size while stepping.
  const side = () => (page() ? "page" : "message");

  let root!: HTMLDivElement;
  let scroller!: HTMLDivElement;
  // Keep the current message in view as the trainer steps through a long journey: the diagram scrolls
  // down within its column, never the page and never sideways. The current message sits near the bottom
  // (a row and a half above it), so the screen shows as much of the journey so far as it can hold, not the
  // empty rows of messages not drawn yet.
  createEffect(() => {
    const m = current();
    const gap = model().messages.length > 1 ? (model().messages[1]?.y ?? 0) - (model().messages[0]?.y ?? 0) : 0;
    if (!m || !scroller) return;
    const top = Math.max(0, m.y + gap * 1.5 - scroller.clientHeight);
    if (typeof scroller.scrollTo === "function") scroller.scrollTo({ top, behavior: "auto" });
    else scroller.scrollTop = top;
  });

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
  onCleanup(() => {
    const target = opener?.isConnected ? opener : props.returnFocus;
    queueMicrotask(() => target?.focus());
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
          <Show when={props.journeyId && current() && current()?.kind !== "event"}>
            <Button onClick={() => setRestarting(true)}>Restart from this step</Button>
          </Show>
          <Button onClick={() => props.onClose()}>Leave (Esc)</Button>
        </div>
        <ErrorMessages error={restartError()} title="The journey could not be restarted." />
        <Show when={restarting() && current()}>
          {(m) => (
            <ConfirmDialog
              title="Restart the journey from this step?"
              message={
                `The sandbox returns to its state before “${m().label}” and the journey's requests from there are sent again, signed with the same TPP's key. ` +
                "The sandbox rewinds only itself: the TPP app's own state is not rewound."
              }
              confirmLabel="Restart"
              busy={restartBusy() === "restart"}
              onConfirm={() => void restart(m().entryId)}
              onCancel={() => setRestarting(false)}
            />
          )}
        </Show>
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
      </header>
      <div class="presentation-body">
        <div class="presentation-diagram-column">
          {/* The lane titles stay in view however far down the journey the trainer is. */}
          <div class="presentation-lane-titles" role="group" aria-label="Lanes" style={{ "font-size": `${model().fontSize}px` }}>
            <For each={model().lanes}>
              {(lane) => (
                <span style={{ left: `${lane.x}px`, "max-width": `${model().laneWidth - 8}px` }}>{lane.title}</span>
              )}
            </For>
          </div>
          <div
            class="presentation-diagram"
            ref={(el) => {
              scroller = el;
              track(el);
            }}
          >
            <SequenceDiagram layout={model()} title={props.title} current={index()} onSelect={(i) => go(i)} headless />
          </div>
        </div>
        <Show when={side() === "page"}>
          <section class="presentation-side presentation-page" aria-label="The PSU's SCA page">
            <h3>What the PSU sees</h3>
            <Show
              when={pageHtml()}
              fallback={<p class="hint">The page {page()?.pageUrl} (not recorded as HTML).</p>}
            >
              {(html) => <PagePreview title="SCA page" html={html()} />}
            </Show>
          </section>
        </Show>
        <Show when={side() === "message"}>
          <section class="presentation-side" aria-label="The message">
            <Show when={!body() && headers().length === 0}>
              <p class="hint">{current()?.kind === "event" ? "An event on the bank's side: nothing travels." : "No body."}</p>
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
            <Show when={current()?.entryId} keyed>
              {(id) => (
                <details class="presentation-headers">
                  <summary>State changes</summary>
                  <StateChanges id={id} noun="step" />
                </details>
              )}
            </Show>
          </section>
        </Show>
      </div>
      <p class="hint presentation-keys">→ next · ← back · Home / End · F follow live · Esc leave</p>
    </div>
  );
}
