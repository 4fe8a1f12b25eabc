// Screen 5, Inspector: the frame of the traffic view. Its virtualised list is ready (TrafficList); the
// traffic log that fills it comes with the next issue, so for now the screen says so.
import { createSignal, Show } from "solid-js";
import { EmptyState } from "../../components/EmptyState";
import { TrafficList } from "./TrafficList";
import type { TrafficLine } from "./TrafficList";

export function InspectorScreen() {
  // The traffic log's feed will append here; nothing feeds it yet.
  const [lines] = createSignal<readonly TrafficLine[]>([]);
  return (
    <div class="inspector-screen">
      <Show
        when={lines().length > 0}
        fallback={
          <EmptyState title="Coming with the traffic log">
            <p>
              The inspector will list every exchange with the sandbox — yours from the Composer and any other TPP's —
              with its signature verdict, headers and bodies. It arrives with the traffic log; until then, the Composer
              shows each answer and the SCA and Batch screens follow the live events.
            </p>
          </EmptyState>
        }
      >
        <TrafficList lines={lines()} height={560} />
      </Show>
    </div>
  );
}
