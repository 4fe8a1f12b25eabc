// The Faults panel (docs/rehearsal.md): the fault plan's rules, each switched on and off with how often it
// fired (read again every few seconds while the panel is in view), and one button per ready-made failure.
import { createResource, For, onCleanup, Show } from "solid-js";
import type { Plan, Preset, Rule } from "../../api/types";
import { useResync, useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ErrorMessages } from "../../components/ErrorMessages";
import { createActions } from "../../lib/action";
import { formatInstant } from "../../lib/format";
import { valueOf } from "../../lib/resource";

/** What a rule does, in a few words. */
export function effectText(rule: Rule): string {
  const e = rule.effect;
  switch (e.kind) {
    case "latency":
      return `latency ${e.fixedMs} ms + up to ${e.jitterMs ?? 0} ms`;
    case "rateLimited":
      return `429, Retry-After ${e.retryAfterSeconds} s`;
    case "serverError":
      return "500 SYSTEM_ERROR";
    case "maintenance":
      return `503 maintenance until ${formatInstant(e.until)}`;
    case "connectionReset":
      return "connection reset";
    case "noAnswer":
      return `no answer (closed after ${e.holdSeconds ?? 120} s)`;
    case "consentRevoked":
      return "consent revoked by the PSU at the bank";
    case "consentExpired":
      return "consent expired (SCA older than 180 days)";
    case "paymentRejected":
      return "payment rejected by the next batch run";
    case "basketPartlyRejected":
      return `basket partly rejected (${e.rejected ?? 1} payment(s))`;
    case "scaCancelled":
      return "SCA page: the PSU cancels";
    case "scaExpired":
      return "SCA page: the authorisation expires";
    case "scaOtherAccounts":
      return "SCA page: other accounts ticked";
    case "scaOtherContext":
      return "SCA page: the other context picked";
  }
}

/** Which requests a rule matches, in a few words. */
export function matchText(rule: Rule): string {
  const m = rule.match ?? {};
  const parts = [
    m.operation,
    m.method,
    m.path ?? "every request",
    m.tpp && `TPP ${m.tpp}`,
    m.psu && `PSU ${m.psu}`,
    m.every && `every ${m.every}`,
    m.probability != null && `p=${m.probability}`,
  ];
  return parts.filter(Boolean).join(" · ");
}

/** How often the plan is read again while the panel is in view with a rule on. */
export const REREAD_MS = 2000;

export function FaultsPanel() {
  const wb = useWorkbench();
  const actions = createActions();
  const [plan, { mutate }] = createResource(() => wb.client.rehearsal.faults());
  const [presets] = createResource(() => wb.client.rehearsal.presets());
  const rules = () => valueOf(plan)?.rules ?? [];
  const has = (id: string) => rules().some((r) => r.id === id);
  // Every change made here counts, so that a re-read begun before it cannot put back what it changed.
  let changes = 0;
  const apply = (key: string, change: () => Promise<Plan>) =>
    actions.run(key, async () => {
      changes++;
      try {
        mutate(await change());
      } finally {
        changes++;
      }
    });

  // The fired counts move with every request a rule matches, which no live event announces: while the
  // panel is in view (its screen shown, the window visible) and a rule is on, the plan is read again.
  let section!: HTMLElement;
  const inView = () => section.isConnected && !section.closest("[hidden]") && document.visibilityState !== "hidden";
  const reread = () => {
    if (actions.busy() !== null) return;
    const at = changes;
    wb.client.rehearsal.faults().then(
      (fresh) => {
        if (at === changes) mutate(fresh);
      },
      () => undefined,
    );
  };
  const timer = setInterval(() => {
    if (inView() && rules().some((r) => r.enabled ?? true)) reread();
  }, REREAD_MS);
  onCleanup(() => clearInterval(timer));
  useResync(reread);
  const add = (preset: Preset) => apply(`add-${preset.rule.id}`, () => wb.client.rehearsal.addRule(preset.rule));

  return (
    <section class="panel faults-panel" aria-label="Faults" ref={section}>
      <h3>Faults</h3>
      <p class="hint">Make the bank misbehave on purpose. Injected answers are marked in the inspector.</p>
      <ErrorMessages error={(plan.error as unknown) ?? actions.error()} />
      <Show when={rules().length > 0} fallback={<p class="hint">No rules: the bank answers as usual.</p>}>
        <table class="faults-table">
          <thead>
            <tr>
              <th scope="col">On</th>
              <th scope="col">Rule</th>
              <th scope="col">Matches</th>
              <th scope="col">Effect</th>
              <th scope="col">Fired</th>
              <th scope="col">
                <span class="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            <For each={rules()}>
              {(rule) => (
                <tr>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Rule ${rule.id} on`}
                      checked={rule.enabled ?? true}
                      disabled={actions.busy() !== null}
                      onChange={(e) =>
                        void apply(`toggle-${rule.id}`, () =>
                          wb.client.rehearsal.setRuleEnabled(rule.id, e.currentTarget.checked),
                        )
                      }
                    />
                  </td>
                  <td>
                    <code>{rule.id}</code>
                  </td>
                  <td>{matchText(rule)}</td>
                  <td>{effectText(rule)}</td>
                  <td aria-label={`Rule ${rule.id} fired`}>{rule.fired ?? 0}</td>
                  <td>
                    <Button
                      variant="link"
                      aria-label={`Remove rule ${rule.id}`}
                      busy={actions.busy() === `remove-${rule.id}`}
                      onClick={() => void apply(`remove-${rule.id}`, () => wb.client.rehearsal.deleteRule(rule.id))}
                    >
                      Remove
                    </Button>
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </Show>
      <h4>Add a failure</h4>
      <div class="actions preset-buttons">
        <For each={valueOf(presets) ?? []}>
          {(preset) => (
            <Button
              busy={actions.busy() === `add-${preset.rule.id}`}
              disabled={has(preset.rule.id)}
              title={preset.title}
              onClick={() => void add(preset)}
            >
              {preset.title}
            </Button>
          )}
        </For>
      </div>
    </section>
  );
}
