// A graded report: the overall verdict and counts, what was graded, notes, a summary table by group, then
// pre-flight and each group's rules (optionally only the findings).
import { createSignal, For, Show } from "solid-js";
import { RuleCard, VERDICT_LABELS, VerdictBadge } from "./RuleCard";
import type { EvidenceActions } from "./RuleCard";
import type { ConformanceCounts as Counts, ConformanceReport as Report, ConformanceRuleResult as RuleResult, ConformanceVerdict as Verdict } from "../../api/types";

const COLUMNS: { key: keyof Counts; verdict: Verdict }[] = [
  { key: "passed", verdict: "PASSED" },
  { key: "failed", verdict: "FAILED" },
  { key: "warning", verdict: "WARNING" },
  { key: "review", verdict: "REVIEW" },
  { key: "notExercised", verdict: "NOT_EXERCISED" },
];

function isFinding(rule: RuleResult): boolean {
  return rule.verdict !== "PASSED" && rule.verdict !== "NOT_EXERCISED";
}

function countsOf(rules: RuleResult[]): Counts {
  const counts: Counts = { passed: 0, failed: 0, warning: 0, review: 0, notExercised: 0 };
  for (const r of rules) {
    const column = COLUMNS.find((c) => c.verdict === r.verdict);
    if (column) counts[column.key] += 1;
  }
  return counts;
}

export function ReportView(props: { report: Report; actions: EvidenceActions }) {
  const [findingsOnly, setFindingsOnly] = createSignal(false);
  const sections = () => [
    { key: "preflight", title: "Pre-flight", verdict: worst(props.report.preflight), counts: countsOf(props.report.preflight), rules: props.report.preflight },
    ...props.report.groups.map((g) => ({ key: g.group, title: g.title, verdict: g.verdict, counts: g.counts, rules: g.rules })),
  ];
  const shown = (rules: RuleResult[]) => (findingsOnly() ? rules.filter(isFinding) : rules);
  const selection = () => props.report.selection;
  return (
    <div class="conformance-report">
      <section class="report-head" aria-label="Overall result">
        <p class="overall">
          Overall <VerdictBadge verdict={props.report.verdict} />{" "}
          <span class="muted">
            {selection().tpp ? `${selection().tpp?.name} (${selection().tpp?.organisationId})` : ""} ·{" "}
            {selection().exchanges} exchanges, {selection().bankExchanges} to the bank's interface,{" "}
            {selection().scaPageExchanges} on the SCA pages, {selection().sandboxExchanges} sandbox-only
            <Show when={selection().truncated}> (the newest kept)</Show>
          </span>
        </p>
        <Show when={props.report.notes.length > 0}>
          <ul class="report-notes" aria-label="Notes">
            <For each={props.report.notes}>{(note) => <li>{note}</li>}</For>
          </ul>
        </Show>
      </section>
      <table class="summary-table">
        <caption>Summary by group</caption>
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col">Verdict</th>
            <For each={COLUMNS}>{(c) => <th scope="col">{VERDICT_LABELS[c.verdict]}</th>}</For>
          </tr>
        </thead>
        <tbody>
          <For each={sections()}>
            {(s) => (
              <tr>
                <th scope="row">
                  <a href={`#group-${s.key}`}>{s.title}</a>
                </th>
                <td>
                  <VerdictBadge verdict={s.verdict} />
                </td>
                <For each={COLUMNS}>{(c) => <td>{s.counts[c.key]}</td>}</For>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <label class="inline">
        <input type="checkbox" checked={findingsOnly()} onChange={(e) => setFindingsOnly(e.currentTarget.checked)} />
        Only findings (failed, warning, review)
      </label>
      <For each={sections()}>
        {(s) => (
          <section class="rule-group" id={`group-${s.key}`} aria-labelledby={`group-title-${s.key}`}>
            <h3 id={`group-title-${s.key}`}>
              {s.title} <VerdictBadge verdict={s.verdict} />
            </h3>
            <Show when={shown(s.rules).length > 0} fallback={<p class="muted">No findings in this group.</p>}>
              <div role="list" aria-label={`${s.title} rules`}>
                <For each={shown(s.rules)}>
                  {(rule) => (
                    <div role="listitem">
                      <RuleCard rule={rule} actions={props.actions} />
                    </div>
                  )}
                </For>
              </div>
            </Show>
          </section>
        )}
      </For>
    </div>
  );
}

const WEIGHT: Record<Verdict, number> = { NOT_EXERCISED: 0, PASSED: 1, REVIEW: 2, WARNING: 3, FAILED: 4 };

function worst(rules: RuleResult[]): Verdict {
  return rules.reduce<Verdict>((w, r) => (WEIGHT[r.verdict] > WEIGHT[w] ? r.verdict : w), "NOT_EXERCISED");
}
