// Screen 6, Flow: one journey (a consent, payment or basket with its SCA and batch runs) as a live sequence
// diagram — lanes TPP app, bank interface, PSU (SCA pages), batch simulator — read from the traffic log's
// journey and kept up to date from its stream; a picker (the newest journey followed unless one is pinned;
// journeys from before the sandbox's last reset listed apart), export as SVG and as Mermaid, or for replay
// (JourneyReplayExport), and presentation mode for trainers.
import { createEffect, createMemo, createResource, createSignal, For, on, onCleanup, onMount, Show } from "solid-js";
import { connectTraffic } from "../../api/traffic";
import type { Entry } from "../../api/traffic";
import { saveFile } from "../../api/native";
import { useEvent, useResync, useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { copyText } from "../../components/CopyButton";
import { EmptyState } from "../../components/EmptyState";
import { ErrorMessages } from "../../components/ErrorMessages";
import { StatusBadge } from "../../components/StatusBadge";
import { createDebounced } from "../../lib/debounce";
import { count, formatInstant } from "../../lib/format";
import { valueOf } from "../../lib/resource";
import { createTypeScale, createWidth } from "../../lib/size";
import { JourneyReplayExport } from "./JourneyReplayExport";
import { geometryFor, layout, messagesOf, redirectsOf } from "./layout";
import { measureLabel } from "./measure";
import { toMermaid } from "./mermaid";
import { Presentation } from "./Presentation";
import { paymentOf } from "./tppSteps";
import { SequenceDiagram, svgFile } from "./SequenceDiagram";

export function FlowScreen() {
  const wb = useWorkbench();
  const [journeys, { refetch: refetchJourneys }] = createResource(() => wb.client.traffic.journeys(50));
  // A journey the trainer pinned; without one the view follows the newest journey of the current sandbox.
  const [pinned, setPinned] = createSignal<string | null>(null);
  const [entries, setEntries] = createSignal<Entry[]>([]);
  const [error, setError] = createSignal<unknown>(null);
  const [presenting, setPresenting] = createSignal<{ start?: number } | null>(null);
  let frame: HTMLElement | undefined;
  let generation = 0;

  // A memo, so the journey is read again only when the id changes (re-reading it emptied the diagram until
  // the read came back). Journeys from before the last reset are never followed: their resources are gone.
  const current = () => (valueOf(journeys) ?? []).filter((j) => !j.beforeReset);
  const earlier = () => (valueOf(journeys) ?? []).filter((j) => j.beforeReset);
  const journeyId = createMemo(() => pinned() ?? current()[0]?.id ?? null);
  const journey = () => valueOf(journeys)?.find((j) => j.id === journeyId()) ?? null;
  const [leaving, setLeaving] = createSignal<ReadonlyMap<number, string>>(new Map());
  const [injected, setInjected] = createSignal<ReadonlyMap<number, string>>(new Map());
  const messages = createMemo(() => messagesOf(entries(), leaving(), injected()));
  // Whether the fault plan has fired at all: only then are the journey's exchanges read whole for the
  // Sandbox-Injected marker (without a plan the view reads no more than the redirects).
  const [plan, { refetch: refetchPlan }] = createResource(() => wb.client.rehearsal.faults().catch(() => null));
  const faultsFired = () => (valueOf(plan)?.rules ?? []).some((r) => (r.fired ?? 0) > 0);
  const present = (at: { start?: number }) => setPresenting(at);
  // What presentation needs of the journey's exchanges: the payment it is about, and its SCA if the PSU
  // still has it to do (the SCAs waiting for the PSU, read again with the journeys).
  const [pending, { refetch: refetchPending }] = createResource(() => wb.client.sca.pending().catch(() => []));
  const payment = createMemo(() => {
    const created = entries().find((e) => e.kind === "exchange" && e.method === "POST" && e.area === "bank");
    return paymentOf(journeyId(), created?.kind === "exchange" ? created.path : undefined);
  });
  const waitingSca = createMemo(() => {
    const authorisations = (e: Entry) => e.resources.filter((r) => r.kind === "authorisation").map((r) => r.id);
    const ids = new Set(entries().flatMap(authorisations));
    // An SCA whose page sent the PSU back to the TPP is done, whatever an older read of the list says.
    const done = new Set(
      entries()
        .filter((e) => !/^(https?:\/\/[^/]+)?\/sca\//.test(leaving().get(e.id) ?? "/sca/"))
        .flatMap(authorisations),
    );
    return (valueOf(pending) ?? []).find((p) => ids.has(p.id) && !done.has(p.id))?.scaRedirect ?? null;
  });
  const [frameWidth, trackFrame] = createWidth(1000);
  // Labels measured as the browser draws them, so none runs past the frame's edge; their type follows the
  // header's Large type, as the rest of the screen's text does.
  const typeScale = createTypeScale();
  const model = createMemo(() => layout(messages(), geometryFor(frameWidth(), 14 * typeScale()), measureLabel));
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
      setPinned(id);
      if (!valueOf(journeys)?.some((j) => j.id === id)) void refetchJourneys();
      wb.handoff.setFlowJourney(null);
    }),
  );

  // The traffic log was cleared: no journey of before is left to draw, so none stays pinned.
  useEvent("traffic.cleared", () => {
    setPinned(null);
    setEntries([]);
    void refetchJourneys();
  });

  const refetchSoon = createDebounced(() => {
    void refetchJourneys();
    void refetchPlan();
    void refetchPending();
  }, 500);
  // A reset, an import or a rewind changes what the journeys are (an initialise marks them as before it):
  // the list is read again, as every screen reads afresh then.
  useEvent("sandbox.changed", () => refetchSoon());
  useResync(() => refetchSoon());
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

  const title = () => journey()?.title ?? journeyId() ?? "No journey yet";
  const fileName = (ext: string) => `${(journeyId() ?? "journey").replace(/[^a-z0-9-]+/gi, "-")}.${ext}`;

  return (
    <div class="flow-screen">
      <div class="toolbar">
        <label class="field inline">
          <span>Journey</span>
          <select value={pinned() ?? ""} onChange={(e) => setPinned(e.currentTarget.value || null)}>
            <option value="" selected={pinned() === null}>
              The newest journey (follows new traffic)
            </option>
            <For each={current()}>
              {(j) => (
                <option value={j.id} selected={pinned() === j.id}>
                  {j.title} · {j.status ?? "–"} · {formatInstant(j.lastAt)}
                </option>
              )}
            </For>
            <Show when={earlier().length > 0}>
              <optgroup label="Before the sandbox was reset (their consents and payments are gone)">
                <For each={earlier()}>
                  {(j) => (
                    <option value={j.id} selected={pinned() === j.id}>
                      {j.title} · before the reset at {formatInstant(j.beforeReset ?? "")}
                    </option>
                  )}
                </For>
              </optgroup>
            </Show>
          </select>
        </label>
        <Button onClick={() => void refetchJourneys()}>Refresh</Button>
        <Button
          ref={(el: HTMLButtonElement) => (presentButton = el)}
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
        <JourneyReplayExport journeyId={journeyId()} title={title()} disabled={messages().length === 0} />
      </div>
      <ErrorMessages error={(journeys.error as unknown) ?? error()} title="The journeys could not be read." />
      <Show when={journey()}>
        {(j) => (
          <p class="hint">
            {j().title} · TPP {j().tpp ?? "–"} · {count(j().entries, "entry", "entries")} ·{" "}
            <Show when={j().beforeReset} fallback={<>status <StatusBadge value={j().status ?? "–"} /></>}>
              {(at) => <>before the sandbox was reset at {formatInstant(at())}: its resources are gone</>}
            </Show>
            {pinned() ? " · pinned" : " · the newest journey, followed"}
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
            <EmptyState
              title={journeyId() ? "Nothing in this journey yet" : earlier().length > 0 ? "No journey since the sandbox was reset" : "No journeys yet"}
            >
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
            pinned={pinned() !== null}
            onPin={(on) => setPinned(on ? journeyId() : null)}
            journeyTpp={journey()?.tpp ?? null}
            payment={payment()}
            waitingSca={waitingSca()}
            // The re-run is a new journey: the newest, followed.
            onRestarted={() => setPinned(null)}
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
