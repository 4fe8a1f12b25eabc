// The gate's verdict as a checklist: every step in the order the gate runs them, passed / failed / skipped /
// warning, the failing step marked and its rule stated in the interface's words with what was found.
import { For, Show } from "solid-js";
import type { GateVerdict, StepOutcome } from "../../api/traffic";

const MARK: Record<StepOutcome, string> = { passed: "✓", failed: "✕", warning: "!", skipped: "–" };

export function VerdictChecklist(props: { verdict: GateVerdict }) {
  return (
    <ol class="verdict" aria-label="Gate verdict">
      <For each={props.verdict.steps}>
        {(step) => (
          <li class={`verdict-step ${step.outcome}`} aria-current={step.outcome === "failed" ? "step" : undefined}>
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
