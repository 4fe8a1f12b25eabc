// The simulated clock, live: its time and mode; advance to the next batch run, advance by minutes, hours
// or days, set it, freeze it or let it run. A move performs the runs it passes before the service answers.
import { createSignal, Show } from "solid-js";
import type { ClockChange, ClockReading } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { SelectField, TextField } from "../../components/Field";
import { createForm, Form } from "../../components/form";
import { formatInstant, localInputFromUtc, utcFromLocalInput } from "../../lib/format";
import { createTickingClock, isoDuration } from "./clock";
import type { AdvanceUnit } from "./clock";

export interface ClockPanelProps {
  reading: { clock: ClockReading; receivedAt: number } | undefined;
  nextRun: string | undefined;
  onChanged: (reading: ClockReading) => void;
}

export function ClockPanel(props: ClockPanelProps) {
  const wb = useWorkbench();
  const now = createTickingClock(() => props.reading);
  const form = createForm();
  const [pending, setPending] = createSignal<string | null>(null);
  const [amount, setAmount] = createSignal("1");
  const [unit, setUnit] = createSignal<AdvanceUnit>("hours");
  const [setTo, setSetTo] = createSignal("");

  const change = async (key: string, body: ClockChange, done: string) => {
    setPending(key);
    const reading = await form.run(() => wb.client.sandbox.changeClock(body));
    setPending(null);
    if (reading) {
      wb.notify(`${done}: ${formatInstant(reading.now)}`, "success");
      props.onChanged(reading);
    }
  };

  const mode = () => props.reading?.clock.mode;

  return (
    <section class="panel clock-panel" aria-label="Clock">
      <h3>Sandbox clock</h3>
      <p class="clock-now" role="timer" aria-live="off" aria-label="Sandbox time">
        {now() ? formatInstant(now()?.toISOString()) : "…"}
      </p>
      <p class="hint">
        Mode: <strong>{mode() ?? "…"}</strong>
        <Show when={props.reading?.clock.offsetSeconds}>
          {(s) => <> · {Math.round(s() / 3600)} h from the machine's clock</>}
        </Show>
      </p>
      <Form form={form} onSubmit={() => void change("advance", { advance: isoDuration(amount(), unit()) }, "Advanced to")} label="Move the clock">
        <div class="actions">
          <Button
            variant="primary"
            busy={pending() === "next"}
            disabled={!props.nextRun || pending() !== null}
            onClick={() => props.nextRun && void change("next", { now: props.nextRun }, "Moved to the next run")}
          >
            Advance to the next run
          </Button>
          <Show
            when={mode() === "frozen"}
            fallback={
              <Button busy={pending() === "freeze"} onClick={() => void change("freeze", { mode: "frozen" }, "Frozen at")}>
                Freeze
              </Button>
            }
          >
            <Button busy={pending() === "real"} onClick={() => void change("real", { mode: "real" }, "Back to real time")}>
              Back to real time
            </Button>
          </Show>
        </div>
        <div class="row-fields">
          <TextField label="Advance by" path="advance" inputmode="numeric" size={5} value={amount()} onValue={setAmount} />
          <SelectField
            label="Unit"
            value={unit()}
            onValue={(v) => setUnit(v as AdvanceUnit)}
            options={["minutes", "hours", "days"]}
          />
          <Button type="submit" busy={pending() === "advance"}>
            Advance
          </Button>
        </div>
        <div class="row-fields">
          <TextField
            label="Set to (UTC)"
            path="now"
            type="datetime-local"
            step="1"
            value={setTo() || localInputFromUtc(props.reading?.clock.now ?? "")}
            onValue={setSetTo}
          />
          <Button
            busy={pending() === "set"}
            onClick={() => {
              const at = utcFromLocalInput(setTo() || localInputFromUtc(props.reading?.clock.now ?? ""));
              void change("set", { now: at }, "Set to");
            }}
          >
            Set clock
          </Button>
        </div>
      </Form>
    </section>
  );
}
