// A real <button> that shows progress: while `busy` it is disabled, says so to assistive technology and
// shows a spinner beside its label.
import { Show, splitProps } from "solid-js";
import type { JSX } from "solid-js";

export interface ButtonProps extends JSX.ButtonHTMLAttributes<HTMLButtonElement> {
  busy?: boolean;
  variant?: "primary" | "secondary" | "danger" | "link";
}

export function Button(props: ButtonProps) {
  const [own, rest] = splitProps(props, ["busy", "variant", "children", "class", "disabled", "type"]);
  return (
    <button
      type={own.type ?? "button"}
      {...rest}
      class={`btn ${own.variant ?? "secondary"} ${own.class ?? ""}`}
      disabled={own.disabled || own.busy}
      aria-busy={own.busy ? true : undefined}
    >
      <Show when={own.busy}>
        <span class="spinner" aria-hidden="true" />
      </Show>
      {own.children}
    </button>
  );
}
