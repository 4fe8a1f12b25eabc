// Copies a text to the clipboard and says so ("Copied") for a moment.
import { createSignal } from "solid-js";
import { Button } from "./Button";

export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  document.execCommand("copy");
  area.remove();
}

export function CopyButton(props: { text: () => string; label: string; class?: string }) {
  const [done, setDone] = createSignal(false);
  const copy = async () => {
    await copyText(props.text());
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  };
  return (
    <Button class={props.class} aria-label={props.label} onClick={() => void copy()}>
      {done() ? "Copied" : "Copy"}
    </Button>
  );
}
