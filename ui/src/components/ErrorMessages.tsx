// The service's tppMessages (or any thrown error) shown as an alert, outside a form; and the lines of messages
// both this and a form's own messages (form.tsx) are made of.
import { For, Show } from "solid-js";
import { messagesFromError } from "../api/errors";
import type { TppMessage } from "../api/types";

export function ErrorMessages(props: { error: unknown; title?: string }) {
  const messages = () => (props.error ? messagesFromError(props.error) : []);
  return (
    <Show when={messages().length > 0}>
      <div class="form-messages" role="alert">
        <Show when={props.title}>
          <p>
            <strong>{props.title}</strong>
          </p>
        </Show>
        <MessageLines messages={messages()} />
      </div>
    </Show>
  );
}

/** One line a message: its code, the JSON path it is about, its text (here and atop a form). */
export function MessageLines(props: { messages: readonly TppMessage[] }) {
  return (
    <For each={props.messages}>
      {(m) => (
        <p>
          <strong>{m.code}</strong>
          <Show when={m.path}>
            {" "}
            at <code>{m.path}</code>
          </Show>
          : {m.text}
        </p>
      )}
    </For>
  );
}
