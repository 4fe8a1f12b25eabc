// A form's state and frame: `createForm` runs the submit action (busy while it runs) and keeps the service's
// tppMessages; fields register the JSON path they edit so each message appears at its field, and the ones no
// field claims appear at the top of the form.
import { createContext, createMemo, createSignal, Show, useContext } from "solid-js";
import type { Accessor, JSX } from "solid-js";
import { fieldErrors, messagesFromError, normalisePath } from "../api/errors";
import type { FieldErrors } from "../api/errors";
import type { TppMessage } from "../api/types";
import { MessageLines } from "./ErrorMessages";

export interface FormState {
  busy: Accessor<boolean>;
  messages: Accessor<TppMessage[]>;
  errors: Accessor<FieldErrors>;
  /** Runs the action; on failure keeps its messages and resolves to undefined. */
  run<T>(action: () => Promise<T>): Promise<T | undefined>;
  clear(): void;
  setMessages(messages: TppMessage[]): void;
  register(path: string): () => void;
  unclaimed: Accessor<TppMessage[]>;
}

/** `prefix` is dropped from the paths the service names, e.g. `[0]` when the body is a one-item array. */
export function createForm(prefix = ""): FormState {
  const [busy, setBusy] = createSignal(false);
  const [messages, setMessages] = createSignal<TppMessage[]>([]);
  const [claimed, setClaimed] = createSignal<ReadonlyMap<string, number>>(new Map());
  const errors = createMemo(() => fieldErrors(messages(), prefix));

  const register = (path: string) => {
    const key = normalisePath(path);
    setClaimed((m) => new Map(m).set(key, (m.get(key) ?? 0) + 1));
    return () =>
      setClaimed((m) => {
        const next = new Map(m);
        const count = (next.get(key) ?? 1) - 1;
        if (count <= 0) next.delete(key);
        else next.set(key, count);
        return next;
      });
  };

  const unclaimed = createMemo(() => {
    const e = errors();
    const taken = claimed();
    const rest: TppMessage[] = [...e.general];
    const isTaken = (path: string) => {
      if (taken.has(path)) return true;
      // A claim of `roles[*]` takes `roles[0]`, `roles[1]` ...
      const bracket = path.lastIndexOf("[");
      return bracket > 0 && taken.has(`${path.slice(0, bracket)}[*]`);
    };
    for (const [path, list] of e.byPath) if (!isTaken(path)) rest.push(...list);
    return rest;
  });

  return {
    busy,
    messages,
    errors,
    setMessages,
    clear: () => setMessages([]),
    register,
    unclaimed,
    async run<T>(action: () => Promise<T>): Promise<T | undefined> {
      setBusy(true);
      setMessages([]);
      try {
        return await action();
      } catch (error) {
        setMessages(messagesFromError(error));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
  };
}

const FormContext = createContext<FormState>();

export function useForm(): FormState | undefined {
  return useContext(FormContext);
}

/** The messages of a form that no field shows. */
export function FormMessages(props: { form: FormState }) {
  return (
    <Show when={props.form.unclaimed().length > 0}>
      <div class="form-messages" role="alert">
        <MessageLines messages={props.form.unclaimed()} />
      </div>
    </Show>
  );
}

export interface FormProps {
  form: FormState;
  onSubmit: () => void;
  label: string;
  children: JSX.Element;
  class?: string;
}

/** A `<form>` named for assistive technology, its unclaimed messages first. */
export function Form(props: FormProps) {
  return (
    <form
      class={props.class ?? "form"}
      aria-label={props.label}
      aria-busy={props.form.busy()}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!props.form.busy()) props.onSubmit();
      }}
    >
      {/* eslint-disable-next-line solid/reactivity -- a form keeps its FormState for life */}
      <FormContext.Provider value={props.form}>
        <FormMessages form={props.form} />
        {props.children}
      </FormContext.Provider>
    </form>
  );
}
