// The production rehearsal panels against the mocked (contract-checked) workbench API: the profile switch,
// the Faults panel (rules with their fired counts, kept current while in view, switched off, a preset added
// with one click) and the
// central register (a TPP's certificate revoked).
import { screen, waitFor, within } from "@solidjs/testing-library";
import userEvent from "@testing-library/user-event";
import { createSignal } from "solid-js";
import { describe, expect, it, vi } from "vitest";
import { effectText, FaultsPanel, REREAD_MS } from "./FaultsPanel";
import { ProfilePanel } from "./ProfilePanel";
import { RegisterPanel } from "./RegisterPanel";
import { renderWorkbench, SESSION } from "../../test/harness";
import { json } from "../../test/fetchMock";
import type { Plan, Preset, RegisteredTpp, Rule } from "../../api/types";

const MAINTENANCE: Preset = {
  title: "Maintenance: 503 for the next two hours",
  rule: {
    id: "maintenance",
    enabled: true,
    match: { path: "/v1/*", until: "2026-06-01T14:00:00Z" },
    effect: { kind: "maintenance", until: "2026-06-01T14:00:00Z" },
    matched: 0,
    fired: 0,
  },
};

const PLAN: Plan = {
  seed: 0,
  rules: [
    {
      id: "rate-limit",
      enabled: true,
      match: { path: "/v1/*", every: 3 },
      effect: { kind: "rateLimited", retryAfterSeconds: 30 },
      matched: 7,
      fired: 2,
    },
  ],
};

const TPP: RegisteredTpp = {
  organisationId: "PSDNO-FSA-ABC123",
  name: "Sandbox AISP PISP AS",
  roles: ["PSP_PI", "PSP_AI"],
  serial: "0A1B",
  firstSeen: "2026-06-01T11:00:00Z",
  lastSeen: "2026-06-01T12:00:00Z",
  registered: true,
  withdrawnRoles: [],
  revokedSerials: [],
};

describe("rehearsal panels", () => {
  it("switches the profile to production", async () => {
    let profile: "sandbox" | "production" = "sandbox";
    const { calls } = renderWorkbench(() => <ProfilePanel />, {
      routes: {
        "GET /session": () => json({ ...SESSION, profile }),
        "PUT /profile": (call) => {
          profile = (call.body as { profile: "sandbox" | "production" }).profile;
          return json({ profile });
        },
      },
    });
    const production = await screen.findByRole("radio", { name: "Production" });
    await waitFor(() => expect(screen.getByRole("radio", { name: "Sandbox" })).toBeChecked());
    await userEvent.click(production);
    await waitFor(() => expect(production).toBeChecked());
    expect(calls.some((c) => c.method === "PUT" && c.path === "/profile")).toBe(true);
    expect(await screen.findByText(/Tolerances are refused/)).toBeInTheDocument();
  });

  it("lists the rules with their fired counts, switches one off and adds a preset", async () => {
    let plan: Plan = PLAN;
    renderWorkbench(() => <FaultsPanel />, {
      routes: {
        "GET /faults": () => json(plan),
        "GET /faults/presets": json([MAINTENANCE]),
        "PATCH /faults/rules/rate-limit": (call) => {
          const enabled = (call.body as { enabled: boolean }).enabled;
          plan = { ...plan, rules: plan.rules?.map((r) => ({ ...r, enabled })) ?? [] };
          return json(plan);
        },
        "POST /faults/rules": (call) => {
          plan = { ...plan, rules: [...(plan.rules ?? []), call.body as Rule] };
          return json(plan, 201);
        },
      },
    });
    const on = await screen.findByRole("checkbox", { name: "Rule rate-limit on" });
    expect(on).toBeChecked();
    expect(screen.getByLabelText("Rule rate-limit fired")).toHaveTextContent("2");
    await userEvent.click(on);
    await waitFor(() => expect(screen.getByRole("checkbox", { name: "Rule rate-limit on" })).not.toBeChecked());
    await userEvent.click(screen.getByRole("button", { name: MAINTENANCE.title }));
    expect(await screen.findByRole("checkbox", { name: "Rule maintenance on" })).toBeChecked();
    expect(screen.getByRole("button", { name: MAINTENANCE.title })).toBeDisabled();
  });

  it("keeps the fired counts current while the panel is in view, and reads nothing while it is hidden", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let fired = 2;
      const [hidden, setHidden] = createSignal(false);
      const { calls } = renderWorkbench(
        () => (
          <div hidden={hidden()}>
            <FaultsPanel />
          </div>
        ),
        {
          routes: {
            "GET /faults": () => json({ ...PLAN, rules: PLAN.rules?.map((r) => ({ ...r, fired })) }),
            "GET /faults/presets": json([MAINTENANCE]),
          },
        },
      );
      const count = await screen.findByLabelText("Rule rate-limit fired");
      expect(count).toHaveTextContent("2");
      // Requests the rule matched meanwhile: the panel says so without being opened again.
      fired = 5;
      await vi.advanceTimersByTimeAsync(REREAD_MS);
      await waitFor(() => expect(screen.getByLabelText("Rule rate-limit fired")).toHaveTextContent("5"));

      setHidden(true);
      const reads = calls.filter((c) => c.path === "/faults").length;
      await vi.advanceTimersByTimeAsync(REREAD_MS * 3);
      expect(calls.filter((c) => c.path === "/faults")).toHaveLength(reads);
    } finally {
      vi.useRealTimers();
    }
  });

  it("says a maintenance window's end as the workbench writes instants (no raw ISO text broken mid-date)", () => {
    expect(effectText(MAINTENANCE.rule)).toBe("503 maintenance until 2026-06-01 14:00:00 UTC");
  });

  it("revokes a TPP's certificate in the central register", async () => {
    let tpp = TPP;
    const { calls } = renderWorkbench(() => <RegisterPanel />, {
      routes: {
        "GET /register": () => json([tpp]),
        "PATCH /register/PSDNO-FSA-ABC123": () => {
          tpp = { ...tpp, revokedSerials: [tpp.serial] };
          return json(tpp);
        },
      },
    });
    const item = await screen.findByRole("listitem", { name: "TPP PSDNO-FSA-ABC123" });
    const revoked = within(item).getByRole("checkbox", { name: "Certificate revoked" });
    expect(revoked).not.toBeChecked();
    await userEvent.click(revoked);
    await waitFor(() =>
      expect(
        within(screen.getByRole("listitem", { name: "TPP PSDNO-FSA-ABC123" })).getByRole("checkbox", {
          name: "Certificate revoked",
        }),
      ).toBeChecked(),
    );
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({ certificateRevoked: true });
  });
});
