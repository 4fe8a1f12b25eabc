// Screen 7, Conformance: a TPP app's traffic graded against the bank's rules (docs/conformance.md) — pick
// the TPP (the traffic log's), optionally a window of the sandbox clock or one journey, grade; the summary
// by group, every rule with its verdict, its evidence a click away in the inspector and the flow view; and
// the report exported as JSON, JUnit or HTML.
import { createResource, createSignal, For, Show } from "solid-js";
import { saveFile } from "../../api/native";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { ErrorMessages } from "../../components/ErrorMessages";
import { valueOf } from "../../lib/resource";
import { EXPORTS, reportFile } from "./api";
import type { ExportFormat } from "./api";
import { ReportView } from "./ReportView";
import type { ConformanceReport as Report, ConformanceReportQuery as ReportQuery } from "../../api/types";
import "./conformance.css";

/** A datetime-local value (the browser's local time) as RFC 3339, or undefined when empty. */
export function toRfc3339(local: string): string | undefined {
  if (!local.trim()) return undefined;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? local : at.toISOString();
}

export function ConformanceScreen() {
  const wb = useWorkbench();
  const api = wb.client.conformance;
  const [tpps, { refetch: refetchTpps }] = createResource(() => api.tpps());
  const [tpp, setTpp] = createSignal("");
  const [since, setSince] = createSignal("");
  const [until, setUntil] = createSignal("");
  const [journey, setJourney] = createSignal("");
  const [report, setReport] = createSignal<Report | null>(null);
  const [graded, setGraded] = createSignal<ReportQuery | null>(null);
  const [error, setError] = createSignal<unknown>(null);
  const [busy, setBusy] = createSignal(false);
  const [exporting, setExporting] = createSignal<ExportFormat | null>(null);

  const chosenTpp = () => tpp() || valueOf(tpps)?.[0]?.organisationId || "";
  const query = (): ReportQuery => ({
    tpp: chosenTpp(),
    since: toRfc3339(since()),
    until: toRfc3339(until()),
    journey: journey().trim() || undefined,
  });

  const grade = async () => {
    setBusy(true);
    setError(null);
    const asked = query();
    try {
      setReport(await api.report(asked));
      setGraded(asked);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const exportAs = async (format: ExportFormat) => {
    const asked = graded();
    if (!asked) return;
    setExporting(format);
    try {
      const text = await reportFile(wb.client, format, asked, report());
      const where = await saveFile(EXPORTS[format].name, text, EXPORTS[format].type);
      if (where) wb.notify(`Saved the report as ${where}`, "success");
    } catch (e) {
      setError(e);
    } finally {
      setExporting(null);
    }
  };

  const actions = {
    openExchange: (id: number) => {
      wb.handoff.setInspectorExchange(id);
      wb.go("inspector");
    },
    openJourney: (id: string) => {
      wb.handoff.setFlowJourney(id);
      wb.go("flow");
    },
  };

  return (
    <div class="conformance-screen">
      <form
        class="form conformance-form"
        aria-label="What to grade"
        onSubmit={(e) => {
          e.preventDefault();
          void grade();
        }}
      >
        <div class="grid">
          <label class="field">
            <span>TPP</span>
            <select value={chosenTpp()} onChange={(e) => setTpp(e.currentTarget.value)}>
              <Show when={(valueOf(tpps) ?? []).length === 0}>
                <option value="">No TPP has called the sandbox yet</option>
              </Show>
              <For each={valueOf(tpps) ?? []}>
                {(t) => (
                  <option value={t.organisationId}>
                    {t.name} ({t.organisationId}) — {t.exchanges} exchanges
                  </option>
                )}
              </For>
            </select>
          </label>
          <label class="field">
            <span>Since (sandbox clock)</span>
            <input type="datetime-local" step="1" value={since()} onInput={(e) => setSince(e.currentTarget.value)} />
          </label>
          <label class="field">
            <span>Until (sandbox clock)</span>
            <input type="datetime-local" step="1" value={until()} onInput={(e) => setUntil(e.currentTarget.value)} />
          </label>
          <label class="field">
            <span>Journey (optional)</span>
            <input value={journey()} placeholder="payment:<id>" onInput={(e) => setJourney(e.currentTarget.value)} />
          </label>
        </div>
        <div class="actions">
          <Button type="submit" variant="primary" busy={busy()} disabled={!chosenTpp() && !journey().trim()}>
            Grade
          </Button>
          <Button onClick={() => void refetchTpps()}>Reload TPPs</Button>
          <For each={["json", "junit", "html"] as ExportFormat[]}>
            {(format) => (
              <Button disabled={!report()} busy={exporting() === format} onClick={() => void exportAs(format)}>
                {EXPORTS[format].label}
              </Button>
            )}
          </For>
        </div>
      </form>
      <ErrorMessages error={error() ?? (tpps.error as unknown)} title="The report could not be made." />
      <Show
        when={report()}
        fallback={
          <EmptyState title="No report yet">
            <p>
              Point the TPP app at the sandbox and run its flows (and a conformance run), then choose its TPP and
              grade: every rule of the bank's interface gets a verdict, with the exchanges that show it.
            </p>
          </EmptyState>
        }
      >
        {(r) => <ReportView report={r()} actions={actions} />}
      </Show>
    </div>
  );
}
