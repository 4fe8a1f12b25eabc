// The Conformance screen against the fetch mock: the TPPs listed, a report graded for the chosen TPP and
// window, its summary by group, rule cards with their evidence, the evidence opened in the inspector and the
// flow view, findings only, the exports, and the service's refusal shown.
import { fireEvent, screen, waitFor, within } from "@solidjs/testing-library";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../../app/App";
import { renderWorkbench } from "../../test/harness";
import { json, refusal } from "../../test/fetchMock";
import { ConformanceScreen, toRfc3339 } from "./ConformanceScreen";
import type { ConformanceReport as Report, ConformanceRuleResult as RuleResult } from "../../api/types";

const saved = vi.hoisted(() => [] as { name: string; contents: string }[]);
vi.mock("../../api/native", () => ({
  isDesktop: () => false,
  saveFile: (name: string, contents: string) => {
    saved.push({ name, contents });
    return Promise.resolve(name);
  },
}));
vi.mock("../../components/codemirror", () => {
  throw new Error("no CodeMirror in tests");
});

const TPP = { organisationId: "PSDNO-FSA-9C2C0A", name: "Sandbox AISP PISP AS", exchanges: 12, firstAt: "2026-06-01T12:00:00Z", lastAt: "2026-06-01T12:05:00Z" };

function rule(id: string, verdict: RuleResult["verdict"], group: RuleResult["group"], evidence: RuleResult["evidence"] = []): RuleResult {
  return {
    id,
    group,
    title: `Rule ${id}`,
    specSection: "Authentication › Request signing 2",
    checks: "what it checks",
    production: "what production does",
    verdict,
    summary: `${id} summary`,
    exercised: 3,
    evidence,
    evidenceOmitted: 0,
  };
}

const counts = { passed: 1, failed: 1, warning: 0, review: 0, notExercised: 1 };

const REPORT: Report = {
  format: "xs2a-sandbox/conformance-report",
  version: 1,
  sandboxVersion: "0.1.0",
  generatedAt: "2026-06-01T12:10:00Z",
  selection: {
    source: "traffic-log",
    tpp: { organisationId: TPP.organisationId, name: TPP.name },
    since: null,
    until: null,
    journey: null,
    flowFile: null,
    exchanges: 12,
    bankExchanges: 8,
    sandboxExchanges: 2,
    scaPageExchanges: 2,
    firstAt: "2026-06-01T12:00:00Z",
    lastAt: "2026-06-01T12:05:00Z",
    truncated: false,
  },
  verdict: "FAILED",
  counts: { passed: 2, failed: 1, warning: 0, review: 0, notExercised: 1 },
  preflight: [rule("NO-PRE-003", "PASSED", "preflight")],
  groups: [
    {
      group: "signing",
      title: "Signing",
      verdict: "FAILED",
      counts,
      rules: [
        rule("NO-SIG-003", "FAILED", "signing", [
          {
            exchangeId: 12,
            step: null,
            at: "2026-06-01T12:01:00Z",
            method: "GET",
            path: "/v1/accounts",
            status: 400,
            journeys: ["consent:a1"],
            note: "Date is 90 s from the bank's clock: refused (at most 60 s)",
          },
        ]),
        rule("NO-SIG-001", "PASSED", "signing"),
        rule("NO-SIG-002", "NOT_EXERCISED", "signing"),
      ],
    },
  ],
  notes: ["The sandbox clock stood still."],
};

const ROUTES = {
  "GET /conformance/tpps": json([TPP]),
  "GET /conformance": json(REPORT),
  "GET /conformance/junit": { text: "<?xml version=\"1.0\"?><testsuites/>" },
  "GET /traffic": json({ entries: [], nextBefore: null }),
  "GET /journeys": json([]),
};

beforeEach(() => {
  saved.length = 0;
});

describe("Conformance screen", () => {
  it("grades the chosen TPP and shows the summary by group and every rule with its verdict", async () => {
    const { calls } = renderWorkbench(() => <ConformanceScreen />, { routes: ROUTES, screen: "conformance" });
    const tpp = await screen.findByLabelText("TPP");
    await waitFor(() => expect(tpp).toHaveValue(TPP.organisationId));
    fireEvent.input(screen.getByLabelText("Since (sandbox clock)"), { target: { value: "2026-06-01T12:00:00" } });
    await userEvent.click(screen.getByRole("button", { name: "Grade" }));
    const table = await screen.findByRole("table", { name: "Summary by group" });
    const signingRow = within(table).getByRole("row", { name: /Signing/ });
    expect(signingRow).toHaveTextContent("Failed");
    const asked = calls.find((c) => c.path === "/conformance");
    expect(asked?.query.get("tpp")).toBe(TPP.organisationId);
    expect(asked?.query.get("since")).toBe(toRfc3339("2026-06-01T12:00:00"));
    const signing = screen.getByRole("list", { name: "Signing rules" });
    expect(within(signing).getAllByRole("article")).toHaveLength(3);
    const failed = screen.getByRole("article", { name: /NO-SIG-003/ });
    expect(failed).toHaveTextContent("Failed");
    expect(within(failed).getByRole("list", { name: "Evidence for NO-SIG-003" })).toHaveTextContent("#12 GET /v1/accounts → 400");
    expect(screen.getByRole("list", { name: "Notes" })).toHaveTextContent("stood still");
  });

  it("shows only the findings when asked", async () => {
    renderWorkbench(() => <ConformanceScreen />, { routes: ROUTES, screen: "conformance" });
    await waitFor(() => expect(screen.getByLabelText("TPP")).toHaveValue(TPP.organisationId));
    await userEvent.click(screen.getByRole("button", { name: "Grade" }));
    await screen.findByRole("table", { name: "Summary by group" });
    await userEvent.click(screen.getByRole("checkbox", { name: /Only findings/ }));
    expect(within(screen.getByRole("list", { name: "Signing rules" })).getAllByRole("article")).toHaveLength(1);
    expect(screen.getByRole("region", { name: /Pre-flight/ })).toHaveTextContent("No findings in this group.");
  });

  it("opens the evidence in the inspector and its journey in the flow view", async () => {
    const { calls } = renderWorkbench(() => <App />, {
      routes: { ...ROUTES, "GET /traffic/12": refusal(404, { code: "RESOURCE_UNKNOWN", text: "gone" }) },
      screen: "conformance",
    });
    await waitFor(() => expect(screen.getByLabelText("TPP")).toHaveValue(TPP.organisationId));
    await userEvent.click(screen.getByRole("button", { name: "Grade" }));
    await userEvent.click(await screen.findByRole("button", { name: "Open exchange 12 in the inspector" }));
    expect(screen.getByRole("tab", { name: /Inspector/ })).toHaveAttribute("aria-selected", "true");
    await waitFor(() => expect(calls.some((c) => c.path === "/traffic/12")).toBe(true));
    await userEvent.click(screen.getByRole("tab", { name: /Conformance/ }));
    await userEvent.click(screen.getByRole("button", { name: "Open journey consent:a1 in the flow view" }));
    expect(screen.getByRole("tab", { name: /Flow/ })).toHaveAttribute("aria-selected", "true");
  });

  it("exports the graded report as JSON and JUnit", async () => {
    const { calls } = renderWorkbench(() => <ConformanceScreen />, { routes: ROUTES, screen: "conformance" });
    expect(screen.getByRole("button", { name: "Export JUnit" })).toBeDisabled();
    await waitFor(() => expect(screen.getByLabelText("TPP")).toHaveValue(TPP.organisationId));
    await userEvent.click(screen.getByRole("button", { name: "Grade" }));
    await screen.findByRole("table", { name: "Summary by group" });
    await userEvent.click(screen.getByRole("button", { name: "Export JSON" }));
    await userEvent.click(screen.getByRole("button", { name: "Export JUnit" }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(JSON.parse(saved[0]!.contents)).toEqual(REPORT);
    expect(saved[1]).toEqual({ name: "conformance.junit.xml", contents: "<?xml version=\"1.0\"?><testsuites/>" });
    expect(calls.find((c) => c.path === "/conformance/junit")?.query.get("tpp")).toBe(TPP.organisationId);
  });

  it("shows the service's refusal", async () => {
    renderWorkbench(() => <ConformanceScreen />, {
      routes: {
        ...ROUTES,
        "GET /conformance": refusal(400, { code: "FORMAT_ERROR", path: "since", text: "since is after until" }),
      },
      screen: "conformance",
    });
    await waitFor(() => expect(screen.getByLabelText("TPP")).toHaveValue(TPP.organisationId));
    await userEvent.click(screen.getByRole("button", { name: "Grade" }));
    expect(await screen.findByText(/since is after until/)).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "No report yet" })).toBeInTheDocument();
  });
});
