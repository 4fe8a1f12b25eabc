// A set of checkboxes for a list value (roles), as a fieldset with a legend; the service's message for the
// list's path is shown under it.
import { createEffect, createUniqueId, For, onCleanup, Show } from "solid-js";
import { normalisePath } from "../api/errors";
import { useForm } from "./form";

export interface CheckboxGroupProps<T extends string> {
  legend: string;
  path?: string;
  options: readonly T[];
  labels?: Partial<Record<T, string>>;
  values: readonly T[];
  onValues: (values: T[]) => void;
}

export function CheckboxGroup<T extends string>(props: CheckboxGroupProps<T>) {
  const form = useForm();
  const errorId = `${createUniqueId()}-error`;
  // The list's own path and its items' (`roles`, `roles[1]`) both land here.
  createEffect(() => {
    if (!form || !props.path) return;
    onCleanup(form.register(props.path));
    onCleanup(form.register(`${props.path}[*]`));
  });
  const messages = () => {
    if (!form || !props.path) return [];
    const base = normalisePath(props.path);
    return [...form.errors().byPath].filter(([p]) => p === base || p.startsWith(`${base}[`)).flatMap(([, m]) => m);
  };
  const toggle = (value: T, on: boolean) => {
    const rest = props.values.filter((v) => v !== value);
    props.onValues(on ? [...rest, value] : rest);
  };
  return (
    <fieldset
      class="checkbox-group"
      classList={{ invalid: messages().length > 0 }}
      aria-describedby={messages().length > 0 ? errorId : undefined}
    >
      <legend>{props.legend}</legend>
      <For each={props.options}>
        {(option) => (
          <label class="inline">
            <input
              type="checkbox"
              checked={props.values.includes(option)}
              onChange={(e) => toggle(option, e.currentTarget.checked)}
            />
            {props.labels?.[option] ?? option}
          </label>
        )}
      </For>
      <Show when={messages().length > 0}>
        <p class="field-error" id={errorId}>
          <For each={messages()}>{(m) => <span>{m.text ?? m.code} </span>}</For>
        </p>
      </Show>
    </fieldset>
  );
}
