// Screen 6, Flow: one journey (a consent, payment or basket with its SCA and batch runs) as a live sequence
// diagram — lanes TPP app, bank interface, PSU (SCA pages), batch simulator — read from the traffic log's
// journey and kept up to date from its stream; a picker (most recent first), export as SVG and as Mermaid,
// and presentation mode for trainers.
import { createEffect, createMemo, createResource, createSignal, For, on, onCleanup, onMount, Show } from "solid-js";
import { connectTraffic } from "../../api/traffic";
import type { Entry } from "../../api/traffic";
import { saveFile } from "../../api/native";
import { useEvent, useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { copyText } from "../../components/CopyButton";
import { EmptyState } from "../../components/EmptyState";
import { ErrorMessages } from "../../components/ErrorMessages";
import { StatusBadge } from "../../components/StatusBadge";
import { createDebounced } from "../../lib/debounce";
import { count, formatInstant } from "../../lib/format";
import { valueOf } from "../../lib/resource";
import { createWidth } from "../../lib/size";
import { geometryFor, layout, messagesOf, redirectsOf } from "./layout";
import { measureLabel } from "./measure";
import { toMermaid } from "./mermaid";
import { Presentation } from "./Presentation";
import { SequenceDiagram, svgFile } from "./SequenceDiagram";

export function FlowScreen() {
  const wb = useWorkbench();
  const [journeys, { refetch: refetchJourneys }] = createResource(() => wb.client.traffic.journeys(50));
  const [chosen, setChosen] = createSignal<string | null>(null);
  const [entries, setEntries] = createSignal<Entry[]>([]);
  const [error, setError] = createSignal<unknown>(null);
  const [presenting, setPresenting] = createSignal<{ start?: number } | null>(null);
  let frame: HTMLElement | undefined;
  let generation = 0;

  // A memo, so the journey is read again only when the id changes: presenting fixes the choice to the journey
  // already drawn, and re-reading it then emptied the diagram (and disabled Present, so Escape could not
  // give the focus back to it) until the read came back.
  const journeyId = createMemo(() => chosen() ?? valueOf(journeys)?.[0]?.id ?? null);
  const journey = () => valueOf(journeys)?.find((j) => j.id === journeyId()) ?? null;
  const [leaving, setLeaving] = createSignal<ReadonlyMap<number, string>>(new Map());
  const [injected, setInjected] = createSignal<ReadonlyMap<number, string>>(new Map());
  const messages = createMemo(() => messagesOf(entries(), leaving(), injected()));
  // Whether the fault plan has fired at all: only then are the journey's exchanges read whole for the
  // Sandbox-Injected marker (without a plan the view reads no more than the redirects).
  const [plan, { refetch: refetchPlan }] = createResource(() => wb.client.rehearsal.faults().catch(() => null));
  const faultsFired = () => (valueOf(plan)?.rules ?? []).some((r) => (r.fired ?? 0) > 0);
  // A presentation holds on to its journey: without a choice the view follows the most recently active
  // journey, and another one becoming active must not swap the diagram under the trainer.
  const present = (at: { start?: number }) => {
    setChosen(journeyId());
    setPresenting(at);
  };
  const [frameWidth, trackFrame] = createWidth(1000);
  // Labels measured as the browser draws them, so none runs past the frame's edge.
  const model = createMemo(() => layout(messages(), geometryFor(frameWidth(), 14), measureLabel));
  let presentButton: HTMLButtonElement | undefined;

  // Where the bank's pages sent the PSU's browser after a step: a redirect leaving the pages goes back to
  // the TPP (its TPP-Redirect-URI), which the diagram shows; and, once the fault plan fired, which answers
  // it injected. Read once per exchange from the whole entry.
  const asked = new Set<number>();
  createEffect(
    on([entries, faultsFired] as const, ([list, fired]) => {
      const ids = fired ? list.filter((e) => e.kind === "exchange").map((e) => e.id) : redirectsOf(list);
      for (const id of ids) {
        if (asked.has(id)) continue;
        asked.add(id);
        wb.client.traffic.entry(id).then(
          (whole) => {
            if (!("response" in whole)) return;
            const header = (name: string) => whole.response.headers.find(([n]) => n.toLowerCase() === name)?.[1];
            const location = header("location");
            if (location) setLeaving((known) => new Map(known).set(id, location));
            const marker = header("sandbox-injected");
            if (marker) setInjected((known) => new Map(known).set(id, marker));
          },
          () => asked.delete(id),
        );
      }
    }),
  );

  createEffect(
    on(journeyId, (id) => {
      const mine = ++generation;
      setEntries([]);
      setError(null);
      if (!id) return;
      wb.client.traffic.journey(id).then(
        (answer) => {
          if (mine !== generation) return;
          // Entries the stream brought while the journey was read are kept (merged by id).
          setEntries((live) => merge(answer.entries, live));
        },
        (e: unknown) => {
          if (mine === generation) setError(e);
        },
      );
    }),
  );

  createEffect(
    on(wb.handoff.flowJourney, (id) => {
      if (!id) return;
      setChosen(id);
      if (!valueOf(journeys)?.some((j) => j.id === id)) void refetchJourneys();
      wb.handoff.setFlowJourney(null);
    }),
  );

  // The traffic log was cleared: no journey of before is left to draw.
  useEvent("traffic.cleared", () => {
    setChosen(null);
    setEntries([]);
    void refetchJourneys();
  });

  const refetchSoon = createDebounced(() => {
    void refetchJourneys();
    void refetchPlan();
  }, 500);
  // Live entries near a journey also bring a re-read of it, merged by id: it covers the moment between the
  // journey's read and the stream's opening (the stream starts from now), and any entry the stream sends
  // later than entries with higher ids (an exchange is numbered when its request arrives).
  const rereadSoon = createDebounced(() => {
    const id = journeyId();
    const mine = generation;
    if (!id) return;
    wb.client.traffic.journey(id).then(
      (answer) => {
        if (mine === generation) setEntries((live) => merge(live, answer.entries));
      },
      () => undefined,
    );
  }, 400);

  onMount(() => {
    if (!wb.openSource) return;
    const open = wb.openSource;
    const stream = connectTraffic({
      url: wb.client.traffic.streamUrl(),
      create: (url) => open(url),
      onEntry: (entry) => {
        const id = journeyId();
        if (id && entry.journeys.includes(id)) setEntries((list) => merge(list, [entry]));
        if (entry.journeys.length > 0 || (entry.kind === "exchange" && entry.area === "sca-page")) {
          refetchSoon();
          rereadSoon();
        }
      },
    });
    onCleanup(() => stream.close());
  });

  const title = () => journey()?.title ?? journeyId() ?? "Journey";
  const fileName = (ext: string) => `${(journeyId() ?? "journey").replace(/[^a-z0-9-]+/gi, "-")}.${ext}`;

  return (
    <div class="flow-screen">
      <div class="toolbar">
        <label class="field inline">
          <span>Journey</span>
          <select value={journeyId() ?? ""} onChange={(e) => setChosen(e.currentTarget.value || null)}>
            <For each={valueOf(journeys) ?? []}>
              {(j) => (
                <option value={j.id}>
                  {j.title} · {j.status ?? "–"} · {formatInstant(j.lastAt)}
                </option>
              )}
            </For>
          </select>
        </label>
        <Button onClick={() => void refetchJourneys()}>Refresh</Button>
        <Button
          ref={(el: HTMLButtonElement) => (presentButton = el)}
          disabled={messages().length === 0}
          onClick={() => present({})}
          variant="primary"
        >
          Present journey
        </Button>
        <Button
          disabled={messages().length === 0}
          onClick={() => {
            // The drawing as it is now (it is drawn afresh when the journey changes).
            const svg = frame?.querySelector<SVGSVGElement>("svg[role=img]");
            if (!svg) return;
            saveFile(fileName("svg"), svgFile(svg), "image/svg+xml").then(
              (where) => where && wb.notify(`SVG saved: ${where}`, "success"),
              (e: unknown) => wb.notify(`The SVG could not be saved: ${e instanceof Error ? e.message : String(e)}`, "error"),
            );
          }}
        >
          Export SVG
        </Button>
        <Button
          disabled={messages().length === 0}
          onClick={() => {
            const text = toMermaid(messages(), title());
            void copyText(text).catch(() => undefined);
            void saveFile(fileName("mmd"), text);
            wb.notify("Mermaid text copied and saved", "success");
          }}
        >
          Export Mermaid
        </Button>
      </div>
      <ErrorMessages error={(journeys.error as unknown) ?? error()} title="The journeys could not be read." />
      <Show when={journey()}>
        {(j) => (
          <p class="hint">
            {j().title} · TPP {j().tpp ?? "–"} · {count(j().entries, "entry", "entries")} · status <StatusBadge value={j().status ?? "–"} />
          </p>
        )}
      </Show>
      <section
        class="flow-frame"
        aria-label="Flow diagram"
        ref={(el) => {
          frame = el;
          trackFrame(el);
        }}
      >
        <Show
          when={messages().length > 0}
          fallback={
            <EmptyState title={journeyId() ? "Nothing in this journey yet" : "No journeys yet"}>
              <p>
                Create a consent, a payment or a basket (from the Composer or your own TPP app): its requests, the PSU's
                SCA and the batch runs are drawn here as they happen.
              </p>
            </EmptyState>
          }
        >
          <SequenceDiagram layout={model()} title={title()} onSelect={(i) => present({ start: i })} />
        </Show>
      </section>
      <Show when={presenting()}>
        {(p) => (
          <Presentation
            title={title()}
            messages={messages()}
            start={p().start}
            returnFocus={presentButton}
            journeyId={journeyId()}
            onRestarted={() => {
              // The re-run is a new journey: follow the most recently active one, live.
              setChosen(null);
              setPresenting(null);
              queueMicrotask(() => setPresenting({}));
            }}
            onClose={() => setPresenting(null)}
          />
        )}
      </Show>
    </div>
  );
}

/** Two entry lists as one, by id, in id order. */
function merge(a: readonly Entry[], b: readonly Entry[]): Entry[] {
  const byId = new Map<number, Entry>();
  for (const e of a) byId.set(e.id, e);
  for (const e of b) byId.set(e.id, e);
  return [...byId.values()].sort((x, y) => x.id - y.id);
}
