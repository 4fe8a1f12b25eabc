// The Flow screen's "Export for replay…": the journey drawn, as a recorded flow with the state the sandbox was in
// just before the journey's first entry (the change journal's state at that point) and the certificate and key
// of the TPP that recorded it (ReplayExport). The journey's files are named after its kind and id
// (`payment-3f2a9c1e.flow.json`), so two exports of different journeys do not take one name.
import { createSignal, Show } from "solid-js";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ReplayExport } from "./ReplayExport";
import type { ReplaySource } from "./ReplayExport";

/** `payment:3f2a9c1e-…` → `payment-3f2a9c1e`: the journey's kind and the first part of its resource's id. */
export function journeyStem(journeyId: string): string {
  const [kind, id = ""] = journeyId.split(":", 2);
  const short = id.split("-")[0] ?? id;
  return `${kind}-${short}`.replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "") || "journey";
}

export function JourneyReplayExport(props: { journeyId: string | null; title: string; disabled: boolean }) {
  const wb = useWorkbench();
  const [source, setSource] = createSignal<ReplaySource | null>(null);

  const open = (id: string) => {
    // The state before the journey's first entry (its entries come in time order, ids rising).
    const firstEntry = async () => {
      const journey = await wb.client.traffic.journey(id);
      const first = journey.entries.reduce((low, e) => Math.min(low, e.id), Number.POSITIVE_INFINITY);
      if (!Number.isFinite(first)) throw new Error("The journey has no entries yet.");
      return first;
    };
    setSource({
      title: `Export the journey “${props.title}” for replay`,
      stem: journeyStem(id),
      flowNote: "the journey's requests and the PSU's SCA",
      stateNote: "the sandbox as it was just before the journey's first request",
      readState: async () => wb.client.rewind.stateAt(await firstEntry(), "before"),
      readFlow: (state) => wb.client.fixtures.journeyFlow(id, state),
    });
  };

  return (
    <>
      <Button disabled={props.disabled || !props.journeyId} onClick={() => props.journeyId && open(props.journeyId)}>
        Export for replay…
      </Button>
      <Show when={source()}>{(s) => <ReplayExport source={s()} onClose={() => setSource(null)} />}</Show>
    </>
  );
}
