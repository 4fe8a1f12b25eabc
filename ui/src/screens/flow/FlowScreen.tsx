// Screen 6, Flow: the frame of the journey view (TPP, bank, PSU, batch as lanes over time). It is filled
// from the traffic log in the next issue; for now it says so.
import { EmptyState } from "../../components/EmptyState";

export function FlowScreen() {
  return (
    <div class="flow-screen">
      <section class="flow-frame" aria-label="Flow diagram">
        <EmptyState title="Coming with the traffic log">
          <p>
            The flow view will draw a journey — consent, SCA redirect, callback, payment, batch run — as lanes for the
            TPP, the bank, the PSU and the batch, built from the traffic log and the live events.
          </p>
        </EmptyState>
      </section>
    </div>
  );
}
