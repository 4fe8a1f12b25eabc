// The state at one timeline entry against the state at another (docs/rewind.md, "Compare"): the other entry
// picked from the recent timeline, each side before or after its entry, and what differs — the resources
// that exist on one side only, the fields that differ, the balances — as GET /state/compare answers it.
// Opened from an entry's State changes ("Compare with…").
import { createMemo, createResource, createSignal, Show } from "solid-js";
import type { Comparison, Position } from "../../api/types";
import type { Entry } from "../../api/traffic";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ErrorMessages } from "../../components/ErrorMessages";
import { SelectField } from "../../components/Field";
import { createActions } from "../../lib/action";
import { valueOf } from "../../lib/resource";
import { ChangeSummaryView } from "./ChangeSummaryView";
import type { SideWords } from "./ChangeSummaryView";

/** How many recent entries are offered to compare with. */
const OFFERED = 200;

/** An entry as the picker names it. */
export function entryLabel(entry: Entry): string {
  return entry.kind === "exchange"
    ? `#${entry.id} ${entry.method} ${entry.path} → ${entry.status}`
    : `#${entry.id} ${entry.event}`;
}

/** The words of a comparison of side A with side B. */
export function comparisonWords(c: Comparison): SideWords {
  const a = `${c.a.position} #${c.a.entry}`;
  const b = `${c.b.position} #${c.b.entry}`;
  return {
    before: a,
    after: b,
    badge: (change) => (change === "created" ? `only ${b}` : change === "removed" ? `only ${a}` : "differs"),
  };
}

const POSITIONS = (id: number | string) => [
  { value: "after", label: `after #${id}` },
  { value: "before", label: `before #${id}` },
];

export interface CompareStatesProps {
  /** The entry whose state is side A. */
  id: number;
  /** How the entry is named ("exchange", "event", "step"). */
  noun: string;
}

export function CompareStates(props: CompareStatesProps) {
  const wb = useWorkbench();
  const { busy, error, run } = createActions();
  const [recent] = createResource(() => wb.client.traffic.page({}, null, OFFERED));
  const others = createMemo(() => (valueOf(recent)?.entries ?? []).filter((e) => e.id !== props.id));
  const [other, setOther] = createSignal<string>("");
  const chosen = () => other() || String(others()[0]?.id ?? "");
  const [aPosition, setAPosition] = createSignal<Position>("after");
  const [bPosition, setBPosition] = createSignal<Position>("after");
  const [result, setResult] = createSignal<Comparison | null>(null);

  const compare = () =>
    run("compare", async () => {
      setResult(null);
      setResult(await wb.client.rewind.compare(props.id, Number(chosen()), aPosition(), bPosition()));
    });

  return (
    <section class="panel compare-states" aria-label="Compare states">
      <h5>Compare the state at this {props.noun} with another</h5>
      <ErrorMessages error={recent.error as unknown} title="The timeline could not be read." />
      <div class="compare-form">
        <SelectField
          label={`State of this ${props.noun}`}
          value={aPosition()}
          onValue={(v) => setAPosition(v as Position)}
          options={POSITIONS(props.id)}
        />
        <SelectField
          label="Compare with"
          value={chosen()}
          onValue={setOther}
          options={others().map((e) => ({ value: String(e.id), label: entryLabel(e) }))}
          disabled={others().length === 0}
        />
        <SelectField
          label="State of the other entry"
          value={bPosition()}
          onValue={(v) => setBPosition(v as Position)}
          options={POSITIONS(chosen() || "…")}
        />
        <Button busy={busy() === "compare"} disabled={!chosen()} onClick={() => void compare()}>
          Compare
        </Button>
      </div>
      <ErrorMessages error={error()} title="The states could not be compared." />
      <Show when={result()}>
        {(c) => (
          <section aria-label="Comparison">
            <p>
              The state {c().a.position} #{c().a.entry} against the state {c().b.position} #{c().b.entry}:
            </p>
            <Show
              when={c().resources.length > 0 || c().balances.length > 0}
              fallback={<p class="hint">The two states are the same.</p>}
            >
              <ChangeSummaryView summary={c()} listLabel="Resources that differ" words={comparisonWords(c())} />
            </Show>
          </section>
        )}
      </Show>
    </section>
  );
}
