// The Inspector and Flow frames say that they come with the traffic log.
import { render, screen } from "@solidjs/testing-library";
import { describe, expect, it } from "vitest";
import { InspectorScreen } from "./InspectorScreen";
import { FlowScreen } from "../flow/FlowScreen";
import { TrafficList } from "./TrafficList";

describe("Inspector and Flow frames", () => {
  it("the inspector says it comes with the traffic log", () => {
    render(() => <InspectorScreen />);
    expect(screen.getByRole("heading", { name: "Coming with the traffic log" })).toBeInTheDocument();
  });

  it("the flow screen says it comes with the traffic log", () => {
    render(() => <FlowScreen />);
    expect(screen.getByRole("region", { name: "Flow diagram" })).toHaveTextContent("Coming with the traffic log");
  });

  it("the traffic list shows lines through the virtual list", () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => ({
      id: String(i),
      at: "2026-06-01T12:00:00.000Z",
      method: "GET",
      path: `/v1/accounts/${i}`,
      status: 200,
      durationMs: 3,
    }));
    render(() => <TrafficList lines={lines} height={560} />);
    expect(screen.getAllByRole("listitem").length).toBeLessThan(50);
    expect(screen.getByText("/v1/accounts/0")).toBeInTheDocument();
  });
});
