// A past run the user opened stays open when the runs are read again (new objects for the same runs).
import { fireEvent, render, screen, within } from "@solidjs/testing-library";
import { createSignal } from "solid-js";
import { describe, expect, it } from "vitest";
import { RunsPanel } from "./RunsPanel";
import type { BatchRun } from "../../api/types";

const run = (): BatchRun => ({
  id: "run-000001",
  at: "2026-06-01T14:00:00Z",
  trigger: "Scheduled",
  lastOfDay: false,
  processed: 1,
  outcomes: [{ paymentId: "pay-1", before: "ACTC", after: "ACSC" }],
});

describe("RunsPanel", () => {
  it("keeps an opened run open across a re-read", () => {
    const [runs, setRuns] = createSignal([run()]);
    render(() => <RunsPanel scheduled={[]} runs={runs()} announced={[]} progress={null} running={false} onRunNow={() => undefined} />);
    const details = within(screen.getByRole("list", { name: "Past batch runs" })).getByRole("group");
    (details as HTMLDetailsElement).open = true;
    fireEvent(details, new Event("toggle"));
    setRuns([run()]);
    const again = within(screen.getByRole("list", { name: "Past batch runs" })).getByRole("group");
    expect(again).not.toBe(details);
    expect(again).toHaveAttribute("open");
  });
});
