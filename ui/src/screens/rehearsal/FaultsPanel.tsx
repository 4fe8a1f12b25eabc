// The Faults panel (docs/rehearsal.md): the fault plan's rules, each switched on and off with how often it
// fired, and one button per ready-made failure to add it.
import { createResource, For, Show } from "solid-js";
import type { Plan, Preset, Rule } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ErrorMessages } from "../../components/ErrorMessages";
import { createActions } from "../../lib/action";
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
      return `503 maintenance until ${e.until}`;
    case "connectionReset":
      return "connection reset";
    case "noAnswer":
      return `no answer (closed after ${e.holdSeconds ?? 120} s)`;
  }
}

/** Which requests a rule matches, in a few words. */
export function matchText(rule: Rule): string {
  const m = rule.match ?? {};
  const parts = [
    m.method,
    m.path ?? "every request",
    m.tpp && `TPP ${m.tpp}`,
    m.psu && `PSU ${m.psu}`,
    m.every && `every ${m.every}`,
    m.probability != null && `p=${m.probability}`,
  ];
  return parts.filter(Boolean).join(" · ");
}

export function FaultsPanel() {
  const wb = useWorkbench();
  const actions = createActions();
  const [plan, { mutate }] = createResource(() => wb.client.rehearsal.faults());
  const [presets] = createResource(() => wb.client.rehearsal.presets());
  const rules = () => valueOf(plan)?.rules ?? [];
  const has = (id: string) => rules().some((r) => r.id === id);
  const apply = (key: string, change: () => Promise<Plan>) =>
    actions.run(key, async () => {
      mutate(await change());
    });
  const add = (preset: Preset) => apply(`add-${preset.rule.id}`, () => wb.client.rehearsal.addRule(preset.rule));

  return (
    <section class="panel faults-panel" aria-label="Faults">
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
