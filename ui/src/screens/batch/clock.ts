// Clock helpers for the Batch screen: the ISO 8601 durations the service takes, and a reading that keeps
// ticking between events while the clock runs (real or shifted), standing still while it is frozen.
import { createMemo, createSignal, onCleanup } from "solid-js";
import type { Accessor } from "solid-js";
import type { ClockReading } from "../../api/types";

export type AdvanceUnit = "minutes" | "hours" | "days";

/** `PT90M`, `PT3H`, `P2D`; the service rejects what it cannot read, at `advance`. */
export function isoDuration(amount: string, unit: AdvanceUnit): string {
  const n = amount.trim();
  if (unit === "days") return `P${n}D`;
  return `PT${n}${unit === "hours" ? "H" : "M"}`;
}

/** The clock's time now: the last reading moved on by the time passed since it arrived, unless frozen. */
export function createTickingClock(reading: Accessor<{ clock: ClockReading; receivedAt: number } | undefined>) {
  const [tick, setTick] = createSignal(Date.now());
  const timer = setInterval(() => setTick(Date.now()), 1000);
  onCleanup(() => clearInterval(timer));
  const now = createMemo(() => {
    const r = reading();
    if (!r) return null;
    const base = new Date(r.clock.now).getTime();
    if (Number.isNaN(base)) return null;
    return r.clock.mode === "frozen" ? new Date(base) : new Date(base + Math.max(0, tick() - r.receivedAt));
  });
  return now;
}
