// The gate's verdict as a checklist: every step in the order the gate runs them, passed / failed / skipped /
// warning, the refusal's step (the first that failed) marked and each failed step's rule stated in the interface's words with what was found.
import { For, Show } from "solid-js";
import type { GateVerdict, StepOutcome } from "../../api/traffic";

const MARK: Record<StepOutcome, string> = { passed: "✓", failed: "✕", warning: "!", skipped: "–" };

export function VerdictChecklist(props: { verdict: GateVerdict }) {
  // The refusal's step is the first that failed (the gate's order is the contract); later failed steps are
  // shown failed too (the sandbox names every problem in one answer) but only the first is the current one.
  const refusalStep = () => props.verdict.steps.findIndex((s) => s.outcome === "failed");
  return (
    <ol class="verdict" aria-label="Gate verdict">
      <For each={props.verdict.steps}>
        {(step, index) => (
          <li class={`verdict-step ${step.outcome}`} aria-current={index() === refusalStep() ? "step" : undefined}>
            <span class="verdict-mark" aria-hidden="true">
              {MARK[step.outcome]}
            </span>
            <span class="verdict-name">
              <strong>{step.step}</strong>
              <span class="visually-hidden">: {step.outcome}</span>
              <Show when={step.header}>
                {(h) => (
                  <span class="hint">
                    {" "}
                    · <code>{h()}</code>
                  </span>
                )}
              </Show>
            </span>
            <Show when={step.outcome === "failed" || step.outcome === "warning"}>
              <p class="verdict-rule">
                <span class="hint">Rule: </span>
                {step.rule}
              </p>
            </Show>
            <Show when={step.detail}>
              <p class={step.outcome === "failed" ? "verdict-detail failed" : "verdict-detail hint"}>{step.detail}</p>
            </Show>
          </li>
        )}
      </For>
    </ol>
  );
}
