// The workbench's shared state, made once and handed to every screen through a Solid context: the client,
// the live-event hub and its connection state, the session, requests in flight, notices, the current screen.
import { createContext, createResource, createSignal, onCleanup, onMount, useContext } from "solid-js";
import type { Accessor, JSX, Resource } from "solid-js";
import { createClient } from "../api/client";
import type { Client } from "../api/client";
import type { ClientConfig } from "../api/config";
import { connectEvents } from "../api/events";
import type { ConnectionState, EventSourceFactory, EventSourceLike } from "../api/events";
import type { TrafficFilter } from "../api/traffic";
import { createTransport } from "../api/http";
import type { Draft, EventKind, Session, TppMessage, WorkbenchEvent } from "../api/types";
import { createEventHub } from "./hub";
import type { EventHub, Listener } from "./hub";
import { SCREEN_IDS, type ScreenId } from "./screens";

export type Tone = "info" | "success" | "warning" | "error";

export interface Notice {
  id: number;
  text: string;
  tone: Tone;
}

export interface Workbench {
  config: ClientConfig;
  client: Client;
  hub: EventHub;
  connection: Accessor<ConnectionState>;
  session: Resource<Session>;
  refetchSession: () => void;
  inFlight: Accessor<number>;
  notices: Accessor<Notice[]>;
  notify(text: string, tone?: Tone): void;
  dismiss(id: number): void;
  screen: Accessor<ScreenId>;
  go(screen: ScreenId): void;
  /** Opens an EventSource the way the app's own stream is opened (a fake in tests), or null when closed. */
  openSource: ((url: string) => EventSourceLike) | null;
  /** Requests one screen makes of another (open a draft in the composer, a journey in the flow view, …). */
  handoff: Handoff;
}

/** Cross-screen requests: the asking screen sets one and switches; the receiving screen takes it. */
export interface Handoff {
  composerDraft: Accessor<Draft | null>;
  setComposerDraft(draft: Draft | null): void;
  flowJourney: Accessor<string | null>;
  setFlowJourney(id: string | null): void;
  inspectorFilter: Accessor<TrafficFilter | null>;
  setInspectorFilter(filter: TrafficFilter | null): void;
  /** An exchange to open in the inspector (the conformance report's evidence). */
  inspectorExchange: Accessor<number | null>;
  setInspectorExchange(id: number | null): void;
}

export interface WorkbenchOptions {
  config: ClientConfig;
  fetch?: typeof fetch;
  /** How to open the event stream; `null` keeps it closed (unit tests). */
  eventSource?: EventSourceFactory | null;
  initialScreen?: ScreenId;
}

const WorkbenchContext = createContext<Workbench>();

function screenFromHash(): ScreenId | null {
  if (typeof location === "undefined") return null;
  const id = location.hash.replace(/^#\/?/, "");
  return (SCREEN_IDS as readonly string[]).includes(id) ? (id as ScreenId) : null;
}

function createWorkbench(options: WorkbenchOptions): Workbench & { start(): () => void } {
  const [inFlight, setInFlight] = createSignal(0);
  const [notices, setNotices] = createSignal<Notice[]>([]);
  const [connection, setConnection] = createSignal<ConnectionState>("closed");
  const [screen, setScreen] = createSignal<ScreenId>(options.initialScreen ?? screenFromHash() ?? "sandbox");
  let nextNotice = 1;

  const dismiss = (id: number) => setNotices((list) => list.filter((n) => n.id !== id));
  const notify = (text: string, tone: Tone = "info") => {
    const id = nextNotice++;
    setNotices((list) => [...list.slice(-4), { id, text, tone }]);
    if (tone !== "error") setTimeout(() => dismiss(id), 8000);
  };
  // A warning accompanies an answer that succeeded: its text says what the service noticed (it names the
  // field itself); the code, an error code such as FORMAT_ERROR, would read as a failure.
  const warn = (messages: TppMessage[]) => {
    for (const m of messages) notify(m.text || `Warning${m.path ? ` at ${m.path}` : ""}`, "warning");
  };

  const transport = createTransport(options.config, { onWarnings: warn, onPending: setInFlight }, options.fetch);
  const client = createClient(transport);
  const hub = createEventHub();
  const [session, { refetch, mutate }] = createResource(() => client.session());

  const [composerDraft, setComposerDraft] = createSignal<Draft | null>(null);
  const [flowJourney, setFlowJourney] = createSignal<string | null>(null);
  const [inspectorFilter, setInspectorFilter] = createSignal<TrafficFilter | null>(null);
  const [inspectorExchange, setInspectorExchange] = createSignal<number | null>(null);
  const handoff: Handoff = {
    composerDraft,
    setComposerDraft,
    flowJourney,
    setFlowJourney,
    inspectorFilter,
    setInspectorFilter,
    inspectorExchange,
    setInspectorExchange,
  };
  const openSource =
    options.eventSource === null
      ? null
      : (options.eventSource ?? ((url: string) => new EventSource(url) as unknown as EventSourceLike));

  const go = (id: ScreenId) => {
    setScreen(id);
    if (typeof history !== "undefined" && typeof location !== "undefined" && location.hash !== `#/${id}`) {
      history.replaceState(history.state, "", `#/${id}`);
    }
  };

  const start = () => {
    if (options.eventSource === null) return () => undefined;
    const stream = connectEvents({
      url: client.eventsUrl(),
      onEvent: (event) => {
        hub.emit(event);
        // A restored snapshot or an imported state replaces everything: every view reads its data afresh.
        if (event.kind === "sandbox.changed" && (event as WorkbenchEvent<"sandbox.changed">).data.what === "all") {
          hub.resync();
          void refetch();
        }
        if (event.kind === "clock" && !session.error && session()) {
          const clock = (event as WorkbenchEvent<"clock">).data;
          mutate((s) => (s ? { ...s, clock: { now: clock.now, mode: clock.mode } } : s));
        }
      },
      onState: setConnection,
      onResync: () => hub.resync(),
      ...(options.eventSource ? { create: options.eventSource } : {}),
    });
    return () => stream.close();
  };

  return {
    config: options.config,
    client,
    hub,
    connection,
    session,
    refetchSession: () => void refetch(),
    inFlight,
    notices,
    notify,
    dismiss,
    screen,
    go,
    openSource,
    handoff,
    start,
  };
}

export function WorkbenchProvider(props: WorkbenchOptions & { children: JSX.Element }) {
  // The options are read once: the workbench is made for the life of the page.
  const workbench = createWorkbench(props);
  onMount(() => onCleanup(workbench.start()));
  return <WorkbenchContext.Provider value={workbench}>{props.children}</WorkbenchContext.Provider>;
}

export function useWorkbench(): Workbench {
  const workbench = useContext(WorkbenchContext);
  if (!workbench) throw new Error("useWorkbench outside WorkbenchProvider");
  return workbench;
}

/** Listens to one kind of live event for the life of the calling component. */
export function useEvent<K extends EventKind>(kind: K, listener: Listener<K>): void {
  const { hub } = useWorkbench();
  onCleanup(hub.on(kind, listener));
}

/** Runs `listener` when views should read their data afresh (the stream reconnected or lagged). */
export function useResync(listener: () => void): void {
  const { hub } = useWorkbench();
  onCleanup(hub.onResync(listener));
}
