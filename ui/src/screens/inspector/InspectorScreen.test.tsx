// The inspector against a mocked traffic API: the list and its live tail, keyboard opening, filters sent
// as the API's query, and a signature refusal shown with its failing step, marked difference and cause.
import { fireEvent, screen, waitFor, within } from "@solidjs/testing-library";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Exchange, ExchangeSummary } from "../../api/traffic";
import { renderWorkbench } from "../../test/harness";
import { FakeEventSource } from "../../test/fakeEventSource";
import { exchangeSummary, persona } from "../../test/fixtures";
import { json } from "../../test/fetchMock";
import { useWorkbench } from "../../app/context";
import { InspectorScreen } from "./InspectorScreen";
import { likelyCause, unsignedHeaders, draftFromExchange } from "./explain";

function summary(id: number, partial: Partial<ExchangeSummary> = {}): ExchangeSummary {
  return exchangeSummary(id, {
    at: "2026-06-01T12:00:00.123Z",
    durationMs: 2,
    path: `/v1/accounts/a${id}`,
    tpp: { organisationId: "PSDNO-FSA-ABC123", name: "Test TPP", subject: "CN=Test TPP" },
    psuId: "12345678901",
    resources: [{ kind: "account", id: `a${id}` }],
    ...partial,
  });
}

const COMPUTED = "date: Mon, 01 Jun 2026 12:00:00 GMT\ndigest: SHA-256=abc=\nx-request-id: 1";
const SIGNED = "date: Mon, 01 Jun 2026 12:00:00 GMT\ndigest: SHA-256=abd=\nx-request-id: 1";

function refused(partial: Partial<Exchange> = {}): Exchange {
  return {
    ...summary(2, { method: "POST", path: "/v1/consents", status: 400, failedStep: "signature", code: "BAD_REQUEST" }),
    request: {
      headers: [
        ["Date", "Mon, 01 Jun 2026 12:00:00 GMT"],
        ["Digest", "SHA-256=abc="],
        ["X-Request-ID", "1"],
        ["PSU-ID", "12345678901"],
        ["Signature", 'keyId="SN=1,CA=x",algorithm="rsa-sha256",headers="date digest x-request-id",signature="zz"'],
      ],
      body: '{"access":{}}',
      bodyBytes: 13,
      bodyBase64: false,
    },
    response: { headers: [["Content-Type", "application/json"]], body: '{"tppMessages":[]}', bodyBytes: 18, bodyBase64: false },
    gate: {
      steps: [
        { step: "date", outcome: "passed", header: "Date", rule: "The Date header is recent.", detail: null },
        { step: "digest", outcome: "passed", header: "Digest", rule: "Digest matches.", detail: null },
        {
          step: "signature",
          outcome: "failed",
          header: "Signature",
          rule: "signature is Base64(RSA-SHA256(signing string)).",
          detail: "The signature does not verify",
        },
      ],
      signingString: COMPUTED,
      signedHeaders: ["date", "digest", "x-request-id"],
      likelyCause: "The signature does not verify.",
    },
    tppMessages: [{ category: "ERROR", code: "BAD_REQUEST", text: "The signature does not verify" }],
    composerSigningString: SIGNED,
    ...partial,
  };
}

function routes(extra = {}) {
  return {
    "GET /traffic": json({ entries: [summary(2, { status: 401, failedStep: "signature", path: "/v1/consents", method: "POST" }), summary(1)], nextBefore: null }),
    "GET /traffic/2": json(refused()),
    ...extra,
  };
}

describe("InspectorScreen", () => {
  it("says what to do first while the log is empty", async () => {
    renderWorkbench(() => <InspectorScreen />, { routes: { "GET /traffic": json({ entries: [], nextBefore: null }) } });
    const empty = await screen.findByRole("region", { name: "No exchanges here yet" });
    expect(empty).toHaveTextContent("send one from the Composer");
    expect(screen.queryByRole("listbox", { name: "Exchanges" })).not.toBeInTheDocument();
  });

  it("lists the page oldest first with method, path, status, TPP and PSU", async () => {
    renderWorkbench(() => <InspectorScreen />, { routes: routes() });
    const list = await screen.findByRole("listbox", { name: "Exchanges" });
    await waitFor(() => expect(within(list).getAllByRole("option")).toHaveLength(2));
    const rows = within(list).getAllByRole("option");
    expect(rows[0]).toHaveTextContent("/v1/accounts/a1");
    expect(rows[1]).toHaveTextContent("POST/v1/consents401 ✕Test TPP12345678901");
  });

  it("opens an exchange from the keyboard and shows the failing step, the difference and the cause", async () => {
    renderWorkbench(() => <InspectorScreen />, { routes: routes() });
    const list = await screen.findByRole("listbox", { name: "Exchanges" });
    await waitFor(() => expect(within(list).getAllByRole("option")).toHaveLength(2));
    list.focus();
    fireEvent.keyDown(list, { key: "ArrowDown" });
    fireEvent.keyDown(list, { key: "ArrowDown" });
    fireEvent.keyDown(list, { key: "Enter" });
    const verdict = await screen.findByRole("list", { name: "Gate verdict" });
    const failing = within(verdict).getAllByRole("listitem").find((li) => li.getAttribute("aria-current") === "step");
    expect(failing).toHaveTextContent("signature");
    expect(failing).toHaveTextContent("Rule: signature is Base64(RSA-SHA256(signing string)).");
    expect(screen.getByText(/1 line differ/)).toBeInTheDocument();
    const marks = screen.getByRole("table", { name: "Signing string comparison" }).querySelectorAll("mark");
    expect([...marks].map((m) => m.textContent)).toEqual(["c", "d"]);
    expect(screen.getByRole("note")).toHaveTextContent("Digest over a different body: the client signed a Digest other than the one sent.");
  });

  it("marks an answer the fault plan injected and does not blame the handler for it", async () => {
    const marker = "injected: 503 maintenance until 02:30 (rule maintenance)";
    const base = refused();
    const injected = refused({
      status: 503,
      failedStep: null,
      code: "SYSTEM_ERROR",
      response: {
        headers: [
          ["Content-Type", "application/json"],
          ["sandbox-injected", marker],
        ],
        body: '{"tppMessages":[]}',
        bodyBytes: 18,
        bodyBase64: false,
      },
      gate: {
        ...base.gate!,
        steps: base.gate!.steps.map((step) => ({ ...step, outcome: "passed", detail: null })),
        likelyCause: "The gate accepted the request; the handler refused it with SYSTEM_ERROR",
      },
      composerSigningString: null,
    });
    renderWorkbench(() => <InspectorScreen />, { routes: routes({ "GET /traffic/2": json(injected) }) });
    const list = await screen.findByRole("listbox", { name: "Exchanges" });
    await waitFor(() => expect(within(list).getAllByRole("option")).toHaveLength(2));
    list.focus();
    fireEvent.keyDown(list, { key: "ArrowDown" });
    fireEvent.keyDown(list, { key: "ArrowDown" });
    fireEvent.keyDown(list, { key: "Enter" });
    const article = await screen.findByRole("article", { name: "Exchange 2" });
    await waitFor(() => expect(within(article).getAllByRole("note")).toHaveLength(2));
    const [shown, cause] = within(article).getAllByRole("note");
    expect(shown).toHaveTextContent(marker);
    expect(cause).toHaveTextContent("fault plan answered this request");
    expect(cause).not.toHaveTextContent("handler refused");
  });

  it("sends the filters as the API's query", async () => {
    const { calls } = renderWorkbench(() => <InspectorScreen />, { routes: routes() });
    await screen.findByRole("listbox", { name: "Exchanges" });
    await userEvent.click(screen.getByRole("checkbox", { name: "Failed only" }));
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Status" }), "4xx");
    await waitFor(() => {
      const last = calls.filter((c) => c.path === "/traffic").at(-1);
      expect(last?.query.get("failed")).toBe("true");
      expect(last?.query.get("status")).toBe("4xx");
    });
  });

  it("appends live entries that pass the filter, resuming a margin before the page's newest id", async () => {
    renderWorkbench(() => <InspectorScreen />, { routes: routes(), live: true });
    const list = await screen.findByRole("listbox", { name: "Exchanges" });
    await waitFor(() => expect(FakeEventSource.find("/traffic/stream")).toBeDefined());
    const stream = FakeEventSource.find("/traffic/stream")!;
    // A margin before the newest id (2): entries numbered earlier but written later are not missed.
    expect(stream.url).toContain("lastEventId=0");
    stream.open();
    stream.emitRaw("entry", summary(3, { path: "/v1/accounts/live" }), 3);
    stream.emitRaw("entry", summary(3, { path: "/v1/accounts/live" }), 3);
    await waitFor(() => expect(within(list).getAllByRole("option")).toHaveLength(3));
    expect(within(list).getAllByRole("option")[2]).toHaveTextContent("/v1/accounts/live");
  });
});

/** Shows what the inspector handed to the composer, and the screen asked for. */
function Probe() {
  const wb = useWorkbench();
  return (
    <output aria-label="probe">
      {wb.screen()} {JSON.stringify(wb.handoff.composerDraft())}
    </output>
  );
}

/** The gate's definitions as the service serves them (GET /workbench/api/gate), trimmed to two steps. */
const GATE = {
  steps: [
    { id: "signed headers", name: "Signed headers", header: "Signature", checks: "date signed; digest signed with a body; every listed header present", refusalCodes: ["BAD_REQUEST"] },
    { id: "signature", name: "Signature", header: "Signature", checks: "RSA-SHA256 over the signing string", refusalCodes: ["BAD_REQUEST"] },
  ],
  signableHeaders: ["date", "digest", "x-request-id", "psu-id", "psu-corporate-id", "tpp-redirect-uri"],
  requiredHeaders: ["X-Request-ID", "Date", "TPP-Signature-Certificate", "Signature"],
  requiredWithBody: ["Digest"],
  maxClockSkewSeconds: 60,
};

describe("InspectorScreen and the gate's definitions", () => {
  it("names the header the request carries but did not sign, from the headers the gate serves as signable", async () => {
    renderWorkbench(() => <InspectorScreen />, {
      routes: routes({ "GET /traffic/2": json(refused({ failedStep: "signed headers" })), "GET /gate": json(GATE) }),
      screen: "inspector",
    });
    const list = await screen.findByRole("listbox", { name: "Exchanges" });
    await waitFor(() => expect(within(list).getAllByRole("option")).toHaveLength(2));
    await userEvent.click(within(list).getAllByRole("option")[1]!);
    expect(await screen.findByRole("note")).toHaveTextContent(
      "Header missing from the signed list: the request carries psu-id but the Signature's headers",
    );
  });
});

describe("InspectorScreen actions", () => {
  it("opens the exchange in the composer with the persona of its TPP, and copies it as curl", async () => {
    const mine = persona({ id: "mine", name: "Mine", organisationId: "PSDNO-FSA-ABC123", source: "issued" });
    const { calls } = renderWorkbench(
      () => (
        <>
          <InspectorScreen />
          <Probe />
        </>
      ),
      {
        routes: routes({
          "GET /personas": json([{ ...mine, id: "other", organisationId: "X" }, mine]),
          "GET /operations": json([]),
          "POST /compose/export": json({ text: "curl …", omitted: [] }),
        }),
        screen: "inspector",
      },
    );
    const list = await screen.findByRole("listbox", { name: "Exchanges" });
    await waitFor(() => expect(within(list).getAllByRole("option")).toHaveLength(2));
    await userEvent.click(within(list).getAllByRole("option")[1]!);
    await userEvent.click(await screen.findByRole("button", { name: "Copy as curl" }));
    await waitFor(() => expect(calls.some((c) => c.path === "/compose/export")).toBe(true));
    const exported = calls.find((c) => c.path === "/compose/export")?.body as { draft: { personaId: string }; format: string };
    expect(exported).toMatchObject({ format: "curl", draft: { personaId: "mine", method: "POST", path: "/v1/consents" } });
    await userEvent.click(screen.getByRole("button", { name: "Open in composer" }));
    await waitFor(() => expect(screen.getByLabelText("probe")).toHaveTextContent('composer {"personaId":"mine","method":"POST"'));
  });
});

describe("explain", () => {
  it("names a header missing from the signed list", () => {
    const ex = refused({ failedStep: "signed headers" });
    // The headers the gate signs, as the service serves them (GET /gate), not a list of the UI's own.
    const signable = ["date", "digest", "x-request-id", "psu-id", "psu-corporate-id", "tpp-redirect-uri"];
    expect(unsignedHeaders(ex, signable)).toEqual(["psu-id"]);
    expect(unsignedHeaders(ex, ["date"])).toEqual([]);
    expect(likelyCause(ex, null, signable)).toContain("the request carries psu-id but the Signature's headers");
  });

  it("says wrong key when both signed the same string", () => {
    expect(likelyCause(refused(), COMPUTED)).toMatch(/^Wrong key/);
  });

  it("gives the handler's reason for a request the gate accepted and the handler refused", () => {
    const accepted = refused({ failedStep: null, status: 400, code: "FORMAT_ERROR", tppMessages: [{ category: "ERROR", code: "FORMAT_ERROR", path: "PSU-ID", text: "PSU-ID is required" }] });
    expect(likelyCause({ ...accepted, gate: { ...accepted.gate!, likelyCause: null } }, null)).toBe(
      "The gate accepted the request; the handler refused it: PSU-ID is required",
    );
    expect(likelyCause({ ...accepted, gate: { ...accepted.gate!, likelyCause: "the service's words" } }, null)).toBe("the service's words");
    expect(likelyCause({ ...accepted, status: 200, tppMessages: [] }, null)).toBeNull();
  });

  it("falls back to the service's words", () => {
    expect(likelyCause(refused({ failedStep: "date", gate: { ...refused().gate!, likelyCause: "Date skew" } }), null)).toBe("Date skew");
  });

  it("re-creates the request as a draft without the signing headers", () => {
    const draft = draftFromExchange(refused({ query: "a=1" }), "p1");
    expect(draft).toEqual({ personaId: "p1", method: "POST", path: "/v1/consents", query: "a=1", headers: [["PSU-ID", "12345678901"]], body: '{"access":{}}' });
  });
});
