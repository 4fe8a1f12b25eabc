// Chooses the operation whose form fills the composer, grouped as the service groups them.
import { createMemo, For, Show } from "solid-js";
import type { Operation } from "../../api/types";

export function OperationPicker(props: { operations: readonly Operation[]; selected: string; onSelect: (id: string) => void }) {
  const groups = createMemo(() => {
    const map = new Map<string, Operation[]>();
    for (const op of props.operations) map.set(op.group, [...(map.get(op.group) ?? []), op]);
    return [...map.entries()];
  });
  const current = () => props.operations.find((o) => o.id === props.selected);
  return (
    <div class="field operation-picker">
      <label for="operation-select">Operation</label>
      <select id="operation-select" value={props.selected} onChange={(e) => props.onSelect(e.currentTarget.value)}>
        <option value="" selected={props.selected === ""}>
          (custom request)
        </option>
        <For each={groups()}>
          {([group, ops]) => (
            <optgroup label={group}>
              <For each={ops}>
                {(op) => (
                  <option value={op.id} selected={op.id === props.selected}>
                    {op.name} — {op.method} {op.path}
                  </option>
                )}
              </For>
            </optgroup>
          )}
        </For>
      </select>
      <Show when={current()}>
        {(op) => (
          <p class="hint">
            {op().description}
            <Show when={op().role}> Needs a persona with {op().role}.</Show>
          </p>
        )}
      </Show>
    </div>
  );
}
