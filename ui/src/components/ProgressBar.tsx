// The thin bar at the top while requests are in flight for more than a moment (250 ms), or a determinate
// bar when `value` and `max` are given (a long batch run).
import { createEffect, createSignal, onCleanup, Show } from "solid-js";

export function ActivityBar(props: { active: boolean }) {
  const [shown, setShown] = createSignal(false);
  createEffect(() => {
    if (!props.active) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), 250);
    onCleanup(() => clearTimeout(timer));
  });
  return (
    <Show when={shown()}>
      <div class="activity-bar" role="progressbar" aria-label="Waiting for the service" />
    </Show>
  );
}

export function Progress(props: { value: number; max: number; label: string }) {
  return (
    <div class="progress">
      <progress value={props.value} max={props.max} aria-label={props.label} />
      <span>
        {props.value} / {props.max}
      </span>
    </div>
  );
}
