// The service's tppMessages (or any thrown error) shown as an alert, outside a form.
import { For, Show } from "solid-js";
import { messagesFromError } from "../api/errors";

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
        <For each={messages()}>
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
      </div>
    </Show>
  );
}
