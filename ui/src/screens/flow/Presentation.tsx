// Presentation mode for trainers, made for a projector (1280x720 and up), from which the whole demo is told:
// one message at a time (→ / ← or Page Down / Page Up; Home, End; F follows live; Escape leaves full screen,
// then presentation). The title (whole, never cut), the "N / M" counter and the current message stay at the
// top; below, the diagram up to that message is drawn to fit its column (all four lanes, text at least 16 px
// and growing with the room, nothing scrolling sideways) and scrolls only down, keeping the message in view;
// beside it the PSU's side (PresentationSide: the bank's page live while the PSU has an SCA to do, the page
// as the PSU saw it, or the message). At the bottom the story's controls: the TPP's next step, sent as one
// persona holding both roles (TppNextStep), the bank's clock and batch runs (BankControls), and "Restart from
// this step" (RestartDialog, docs/rewind.md). The diagram follows the newest journey unless the trainer pins
// the one shown; full screen is the window's own. Leaving gives the focus back to what opened it.
import { createEffect, createMemo, createSignal, For, on, onCleanup, onMount, Show, untrack } from "solid-js";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { createActions } from "../../lib/action";
import { createSize } from "../../lib/size";
import { BankControls } from "./BankControls";
import { fitLayout } from "./fit";
import { createFullScreen } from "./fullScreen";
import type { Message, PlacedMessage } from "./layout";
import { LANES } from "./layout";
import { measureLabel } from "./measure";
import { keyBelongsElsewhere } from "./presentationKeys";
import { PresentationSide } from "./PresentationSide";
import { RestartDialog } from "./RestartDialog";
import { SequenceDiagram } from "./SequenceDiagram";
import type { PaymentRef } from "./tppSteps";
import { TppNextStep } from "./TppNextStep";
import "./presentation.css";

export { pageAt } from "./PresentationSide";

const LANE_TITLE = Object.fromEntries(LANES.map((l) => [l.id, l.title]));

export interface PresentationProps {
  title: string;
  messages: readonly Message[];
  start?: number;
  onClose: () => void;
  /** The journey shown, for "Restart from this step". */
  journeyId?: string | null;
  /** Whether the trainer pinned the journey shown (else the newest journey is shown as traffic comes). */
  pinned: boolean;
  onPin: (pinned: boolean) => void;
  /** The journey's TPP (the story's persona when it holds both roles) and its payment, if it is one. */
  journeyTpp?: string | null;
  payment?: PaymentRef | null;
  /** An SCA of the journey waiting for the PSU: its scaRedirect. */
  waitingSca?: string | null;
  /** Called once a restart began (the re-run makes a new journey). */
  onRestarted?: () => void;
  /** Where the focus goes on leaving when the control that opened it is gone. */
  returnFocus?: HTMLElement | null;
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
  const [restarting, setRestarting] = createSignal<PlacedMessage | null>(null);
  const [live, setLive] = createSignal<string | null>(null);
  const { busy: restartBusy, error: restartError, run: act } = createActions();
  const fullScreen = createFullScreen((e) => wb.notify(`Full screen is not available: ${e instanceof Error ? e.message : String(e)}`, "error"));
  const restart = (from: number) =>
    act("restart", async () => {
      const journey = props.journeyId;
      if (!journey) return;
      const answer = await wb.client.rewind.restart(journey, from);
      setRestarting(null);
      setFollow(true);
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

  // Follow live: a new message moves the view to it; another journey shown starts followed at its newest.
  createEffect(
    on(count, (n) => {
      if (follow() && n > 0) setIndex(n - 1);
    }),
  );
  createEffect(
    on(
      () => props.journeyId,
      () => {
        setFollow(true);
        setIndex(Math.max(0, count() - 1));
      },
      { defer: true },
    ),
  );

  let root!: HTMLDivElement;
  let scroller!: HTMLDivElement;
  // Keep the current message in view as the trainer steps through a long journey: the diagram scrolls
  // down within its column, never the page and never sideways. The current message sits near the bottom
  // (a row and a half above it), so the screen shows as much of the journey so far as it can hold.
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
      if (keyBelongsElsewhere(e, root)) return;
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
        // Full screen is left first, as a browser does; presentation on the next Escape.
        Escape: () => (fullScreen.on() ? void fullScreen.set(false) : props.onClose()),
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
        <p
          class="presentation-count"
          role="status"
          aria-live="polite"
          aria-label="Position in the journey"
          title="→ next · ← back · Home / End · F follow live · Esc leaves full screen, then presentation (the ? list has them all)"
        >
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
          <Button aria-pressed={props.pinned} onClick={() => props.onPin(!props.pinned)} title="Keep this journey on the screen when another one starts">
            Pin journey
          </Button>
          <Button aria-pressed={fullScreen.on()} onClick={() => void fullScreen.set(!fullScreen.on())}>
            Full screen
          </Button>
          <Button onClick={() => props.onClose()}>Leave (Esc)</Button>
        </div>
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
      <div class={`presentation-body${live() ? " with-live-page" : ""}`}>
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
        <PresentationSide
          messages={props.messages}
          index={index()}
          current={current()}
          live={live()}
          onLiveLeft={() => setLive(null)}
          waiting={props.waitingSca ?? null}
          onOpen={setLive}
        />
      </div>
      <div class="presentation-foot">
        <TppNextStep
          journeyTpp={props.journeyTpp ?? null}
          payment={props.payment ?? null}
          onScaRedirect={(url) => {
            setFollow(true);
            setLive(url);
          }}
        />
        <BankControls />
        <Show when={props.journeyId && current() && current()?.kind !== "event"}>
          <Button onClick={() => setRestarting(current())}>Restart from this step</Button>
        </Show>
      </div>
      <Show when={restarting() && props.journeyId}>
        {(journey) => (
          <RestartDialog
            journeyId={journey()}
            from={(restarting() as PlacedMessage).entryId}
            label={(restarting() as PlacedMessage).label}
            busy={restartBusy() === "restart"}
            error={restartError()}
            onConfirm={() => void restart((restarting() as PlacedMessage).entryId)}
            onCancel={() => setRestarting(null)}
          />
        )}
      </Show>
    </div>
  );
}
