// One rule of the report: its id, title and verdict, the outcome in a sentence, where the bank's documentation says it and
// what production does, and its evidence — each exchange a click away in the inspector, its journey in
// the flow view.
import { For, Show } from "solid-js";
import type { ConformanceEvidence as Evidence, ConformanceRuleResult as RuleResult, ConformanceVerdict as Verdict } from "../../api/types";

export const VERDICT_LABELS: Record<Verdict, string> = {
  PASSED: "Passed",
  FAILED: "Failed",
  WARNING: "Warning",
  REVIEW: "Review",
  NOT_EXERCISED: "Not exercised",
};

export function VerdictBadge(props: { verdict: Verdict }) {
  return <span class={`verdict-badge v-${props.verdict.toLowerCase()}`}>{VERDICT_LABELS[props.verdict]}</span>;
}

export interface EvidenceActions {
  openExchange(id: number): void;
  openJourney(id: string): void;
}

function where(e: Evidence): string {
  if (e.exchangeId !== null) return `#${e.exchangeId}`;
  if (e.step !== null) return `step ${e.step}`;
  return "";
}

function EvidenceItem(props: { item: Evidence; actions: EvidenceActions }) {
  const e = () => props.item;
  return (
    <li class="evidence-item">
      <span class="mono">
        {where(e())} {e().method} {e().path} → {e().status}
      </span>
      <span class="evidence-note">{e().note}</span>
      <span class="evidence-actions">
        <Show when={e().exchangeId}>
          {(id) => (
            <button
              type="button"
              class="btn link"
              aria-label={`Open exchange ${id()} in the inspector`}
              onClick={() => props.actions.openExchange(id())}
            >
              Inspector
            </button>
          )}
        </Show>
        <For each={e().journeys}>
          {(journey) => (
            <button
              type="button"
              class="btn link"
              aria-label={`Open journey ${journey} in the flow view`}
              onClick={() => props.actions.openJourney(journey)}
            >
              Flow
            </button>
          )}
        </For>
      </span>
    </li>
  );
}

export function RuleCard(props: { rule: RuleResult; actions: EvidenceActions }) {
  const r = () => props.rule;
  const headingId = () => `rule-${r().id}`;
  return (
    <article class={`rule-card v-${r().verdict.toLowerCase()}`} aria-labelledby={headingId()}>
      <h4 id={headingId()}>
        <span class="mono rule-id">{r().id}</span> {r().title} <VerdictBadge verdict={r().verdict} />
      </h4>
      <p>{r().summary}</p>
      <details>
        <summary>What it checks, and what production does</summary>
        <dl class="rule-facts">
          <dt>Bank's documentation</dt>
          <dd>{r().specSection}</dd>
          <dt>Checks</dt>
          <dd>{r().checks}</dd>
          <dt>Production</dt>
          <dd>{r().production}</dd>
        </dl>
      </details>
      <Show when={r().evidence.length > 0}>
        <ul class="evidence" aria-label={`Evidence for ${r().id}`}>
          <For each={r().evidence}>{(item) => <EvidenceItem item={item} actions={props.actions} />}</For>
          <Show when={r().evidenceOmitted > 0}>
            <li class="muted">… and {r().evidenceOmitted} more</li>
          </Show>
        </ul>
      </Show>
    </article>
  );
}
