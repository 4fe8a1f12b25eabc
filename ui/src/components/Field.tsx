// Labelled form controls. Each names the JSON path it edits; the service's message for that path is shown
// under it, tied to the control by aria-errormessage / aria-describedby, and the control is marked invalid.
import { createEffect, createUniqueId, For, onCleanup, Show, splitProps } from "solid-js";
import type { JSX } from "solid-js";
import { useForm } from "./form";
import { normalisePath } from "../api/errors";

/** The JSON path a control edits, or several (e.g. `account` and `account.bban`) that all land on it. */
export type FieldPath = string | readonly string[];

function pathsOf(path: FieldPath | undefined): readonly string[] {
  return path === undefined ? [] : typeof path === "string" ? [path] : path;
}

/** The service's messages for the given path(s) in the enclosing form; registers the path(s) as shown. */
export function useFieldMessages(path: () => FieldPath | undefined) {
  const form = useForm();
  createEffect(() => {
    if (form) for (const p of pathsOf(path())) onCleanup(form.register(p));
  });
  return () => (form ? pathsOf(path()).flatMap((p) => form.errors().byPath.get(normalisePath(p)) ?? []) : []);
}

interface ShellProps {
  label: string;
  path?: FieldPath;
  hint?: string;
  class?: string;
  children: (control: ControlProps) => JSX.Element;
}

export interface ControlProps {
  id: string;
  "aria-invalid": boolean;
  "aria-describedby"?: string;
  "aria-errormessage"?: string;
}

/** Label, control, hint and error, in that order. */
function FieldShell(props: ShellProps) {
  const id = createUniqueId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const messages = useFieldMessages(() => props.path);
  const invalid = () => messages().length > 0;
  const describedBy = () =>
    [props.hint ? hintId : "", invalid() ? errorId : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div class={`field ${props.class ?? ""}`} classList={{ invalid: invalid() }}>
      <label for={id}>{props.label}</label>
      {props.children({
        id,
        get "aria-invalid"() {
          return invalid();
        },
        get "aria-describedby"() {
          return describedBy();
        },
        get "aria-errormessage"() {
          return invalid() ? errorId : undefined;
        },
      })}
      <Show when={props.hint}>
        <p class="hint" id={hintId}>
          {props.hint}
        </p>
      </Show>
      <Show when={invalid()}>
        <p class="field-error" id={errorId}>
          <For each={messages()}>{(m) => <span>{m.text ?? m.code} </span>}</For>
        </p>
      </Show>
    </div>
  );
}

type InputAttrs = Omit<JSX.InputHTMLAttributes<HTMLInputElement>, "value" | "onInput" | "id">;

export interface TextFieldProps extends InputAttrs {
  label: string;
  path?: FieldPath;
  hint?: string;
  value: string;
  onValue: (value: string) => void;
}

export function TextField(props: TextFieldProps) {
  const [own, rest] = splitProps(props, ["label", "path", "hint", "value", "onValue", "class"]);
  return (
    <FieldShell label={own.label} path={own.path} hint={own.hint} class={own.class}>
      {(control) => (
        <input
          type="text"
          {...rest}
          {...control}
          value={own.value}
          onInput={(e) => own.onValue(e.currentTarget.value)}
        />
      )}
    </FieldShell>
  );
}

export interface TextAreaFieldProps {
  label: string;
  path?: FieldPath;
  hint?: string;
  value: string;
  onValue: (value: string) => void;
  rows?: number;
  class?: string;
  placeholder?: string;
}

export function TextAreaField(props: TextAreaFieldProps) {
  return (
    <FieldShell label={props.label} path={props.path} hint={props.hint} class={props.class}>
      {(control) => (
        <textarea
          {...control}
          rows={props.rows ?? 4}
          placeholder={props.placeholder}
          spellcheck={false}
          value={props.value}
          onInput={(e) => props.onValue(e.currentTarget.value)}
        />
      )}
    </FieldShell>
  );
}

export interface Choice {
  value: string;
  label: string;
}

export interface SelectFieldProps {
  label: string;
  path?: FieldPath;
  hint?: string;
  value: string;
  onValue: (value: string) => void;
  options: readonly (Choice | string)[];
  class?: string;
  disabled?: boolean;
}

export function SelectField(props: SelectFieldProps) {
  const choices = () => props.options.map((o) => (typeof o === "string" ? { value: o, label: o } : o));
  return (
    <FieldShell label={props.label} path={props.path} hint={props.hint} class={props.class}>
      {(control) => (
        <select
          {...control}
          disabled={props.disabled}
          value={props.value}
          onChange={(e) => props.onValue(e.currentTarget.value)}
        >
          <For each={choices()}>
            {(c) => (
              <option value={c.value} selected={c.value === props.value}>
                {c.label}
              </option>
            )}
          </For>
        </select>
      )}
    </FieldShell>
  );
}

export interface CheckboxFieldProps {
  label: string;
  path?: FieldPath;
  hint?: string;
  checked: boolean;
  onChecked: (checked: boolean) => void;
  class?: string;
}

export function CheckboxField(props: CheckboxFieldProps) {
  return (
    <FieldShell label={props.label} path={props.path} hint={props.hint} class={`checkbox ${props.class ?? ""}`}>
      {(control) => (
        <input
          type="checkbox"
          {...control}
          checked={props.checked}
          onChange={(e) => props.onChecked(e.currentTarget.checked)}
        />
      )}
    </FieldShell>
  );
}
