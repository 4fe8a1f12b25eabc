// The TPP developer's dead ends, gone: "Copy as curl" of another app's exchange signs with a persona that
// may do the operation (or says that none can), a Digest refusal shows the bytes received, "Failed only"
// shows its entries whatever the list's scroll position was, the traffic can be cleared after a
// confirmation, and a pasted request gets the gate's verdict.
import { screen, waitFor, within } from "@solidjs/testing-library";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Exchange, ExchangeSummary } from "../../api/traffic";
import type { Operation } from "../../api/types";
import { renderWorkbench } from "../../test/harness";
import { exchangeSummary, persona } from "../../test/fixtures";
import { json } from "../../test/fetchMock";
import { InspectorScreen } from "./InspectorScreen";
import { Notices } from "../../app/Notices";
import { escapedParts, receivedSummary } from "./BodyView";
import { operationOf } from "./signAs";

const OUTSIDE = { organisationId: "PSDNO-FSA-OUTSID", name: "Outside App", subject: "CN=Outside App" };
const PAYMENT_PATH = "/v1/payments/instant-norwegian-domestic-credit-transfers-straks";
const BODY = '{\n  "instructedAmount": {"currency": "NOK", "amount": "250.00"}\n}\n';

function operation(parts: Partial<Operation> & Pick<Operation, "id" | "method" | "path" | "role">): Operation {
  return {
    operationId: parts.id,
    hints: [],
    group: "Payments",
    name: parts.id,
    pathParams: [],
    query: [],
    headers: [],
    body: null,
    description: parts.id,
    ...parts,
  };
}

const OPERATIONS: Operation[] = [
  operation({ id: "straks", method: "POST", path: PAYMENT_PATH, role: "PSP_PI" }),
  operation({ id: "payment-status", method: "GET", path: "/v1/{service}/{product}/{paymentId}/status", role: "PSP_PI" }),
  operation({ id: "accounts", method: "GET", path: "/v1/accounts", role: "PSP_AI", group: "Accounts" }),
];

function exchange(partial: Partial<Exchange> = {}): Exchange {
  return {
    ...exchangeSummary(7, { method: "POST", path: PAYMENT_PATH, status: 201, tpp: OUTSIDE, psuId: "their-psu" }),
    request: {
      headers: [
        ["Date", "Mon, 01 Jun 2026 12:00:00 GMT"],
        ["PSU-ID", "their-psu"],
        ["TPP-Session-ID", "s-1"],
        ["x-accept-fix", "amount-as-string"],
        ["Content-Type", "application/json"],
      ],
      body: BODY,
      bodyBytes: BODY.length,
      bodyBase64: false,
    },
    response: { headers: [], body: null, bodyBytes: 0, bodyBase64: false },
    gate: { steps: [], signingString: null, signedHeaders: [], likelyCause: null },
    tppMessages: [],
    composerSigningString: null,
    ...partial,
  };
}

async function openFirst() {
  const list = await screen.findByRole("listbox", { name: "Exchanges" });
  await waitFor(() => expect(within(list).getAllByRole("option").length).toBeGreaterThan(0));
  await userEvent.click(within(list).getAllByRole("option")[0]!);
}

describe("Copy as curl of another app's exchange", () => {
  it("finds the operation a logged request is, the most literal template first", () => {
    expect(operationOf({ method: "POST", path: PAYMENT_PATH }, OPERATIONS)?.id).toBe("straks");
    expect(operationOf({ method: "GET", path: "/v1/payments/x/p-1/status" }, OPERATIONS)?.id).toBe("payment-status");
    expect(operationOf({ method: "DELETE", path: "/v1/accounts" }, OPERATIONS)).toBeNull();
  });

  it("signs a payment with a persona that holds PSP_PI, not the first one, and with its own PSU-ID", async () => {
    const aisOnly = persona({ id: "bundled-aisp", name: "Sandbox AISP AS", roles: ["PSP_AI"], organisationId: "PSDNO-FSA-3AF69D" });
    const both = persona({ psuId: "mine-psu" });
    const { calls } = renderWorkbench(() => (<><InspectorScreen /><Notices /></>), {
      routes: {
        "GET /traffic": json({ entries: [exchangeSummary(7, { method: "POST", path: PAYMENT_PATH, tpp: OUTSIDE })], nextBefore: null }),
        "GET /traffic/7": json(exchange()),
        "GET /personas": json([aisOnly, both]),
        "GET /operations": json(OPERATIONS),
        "POST /compose/export": json({ text: "( set -eu … )", omitted: [] }),
      },
      screen: "inspector",
    });
    await openFirst();
    await userEvent.click(await screen.findByRole("button", { name: "Copy as curl" }));
    await waitFor(() => expect(calls.some((c) => c.path === "/compose/export")).toBe(true));
    const exported = calls.find((c) => c.path === "/compose/export")?.body as { draft: { personaId: string; headers: string[][] } };
    expect(exported.draft.personaId).toBe("bundled-aisp-pisp");
    // psu-ids differ per TPP: the other app's means nothing to this persona's TPP.
    expect(exported.draft.headers).toContainEqual(["PSU-ID", "{{persona.psuId}}"]);
    expect(exported.draft.headers).toContainEqual(["TPP-Session-ID", "s-1"]);
    expect(await screen.findByText(/Signed as Sandbox AISP PISP AS, holds PSP_PI, which this operation needs/)).toBeInTheDocument();
  });

  it("says that it cannot when no persona holds the role, and copies nothing", async () => {
    const aisOnly = persona({ id: "bundled-aisp", name: "Sandbox AISP AS", roles: ["PSP_AI"], organisationId: "PSDNO-FSA-3AF69D" });
    const { calls } = renderWorkbench(() => <InspectorScreen />, {
      routes: {
        "GET /traffic": json({ entries: [exchangeSummary(7, { method: "POST", path: PAYMENT_PATH, tpp: OUTSIDE })], nextBefore: null }),
        "GET /traffic/7": json(exchange()),
        "GET /personas": json([aisOnly, persona({ id: "gone", status: "expired" })]),
        "GET /operations": json(OPERATIONS),
      },
      screen: "inspector",
    });
    await openFirst();
    await userEvent.click(await screen.findByRole("button", { name: "Copy as curl" }));
    await waitFor(() =>
      expect(screen.getAllByRole("alert").map((a) => a.textContent).join(" ")).toContain(
        `No persona holds PSP_PI, which POST ${PAYMENT_PATH} needs`,
      ),
    );
    expect(calls.some((c) => c.path === "/compose/export")).toBe(false);
  });
});

describe("A Digest refusal", () => {
  it("shows the bytes received, escaped, with their count and line ends, and names the curl -d cause", async () => {
    const flat = BODY.replace(/\n/g, "");
    renderWorkbench(() => <InspectorScreen />, {
      routes: {
        "GET /traffic": json({ entries: [exchangeSummary(7, { status: 400, failedStep: "digest" })], nextBefore: null }),
        "GET /traffic/7": json(
          exchange({
            status: 400,
            failedStep: "digest",
            request: { headers: [], body: flat, bodyBytes: flat.length, bodyBase64: false },
            gate: { steps: [], signingString: null, signedHeaders: [], likelyCause: "Digest over a different body: the Digest does not match the bytes sent." },
          }),
        ),
      },
      screen: "inspector",
    });
    await openFirst();
    const request = await screen.findByRole("region", { name: "Request" });
    expect(within(request).getByRole("button", { name: "As received" })).toHaveAttribute("aria-pressed", "true");
    expect(within(request).getByLabelText("Request body, as received").textContent).toBe(flat);
    expect(within(request).getByText(`${flat.length} bytes as received, no line ends`)).toBeInTheDocument();
    expect(screen.getByRole("note")).toHaveTextContent("Sent from a file with “curl -d @file”?");
    await userEvent.click(within(request).getByRole("button", { name: "Formatted" }));
    expect(within(request).getByLabelText("Request body")).toHaveTextContent('"instructedAmount"');
  });

  it("writes line ends and tabs as their escapes, and counts them", () => {
    expect(escapedParts('{\r\n\t"a": 1\n}')).toEqual([
      { text: "{", escape: false },
      { text: "\\r", escape: true },
      { text: "\\n", escape: true },
      { text: "\n", escape: false },
      { text: "\\t", escape: true },
      { text: '"a": 1', escape: false },
      { text: "\\n", escape: true },
      { text: "\n", escape: false },
      { text: "}", escape: false },
    ]);
    const message = (body: string) => ({ headers: [], body, bodyBytes: body.length, bodyBase64: false });
    expect(receivedSummary(message(BODY))).toBe(`${BODY.length} bytes as received, 3 line ends (LF)`);
    expect(receivedSummary(message("a\r\nb\r\n"))).toBe("6 bytes as received, 2 line ends (CRLF)");
  });
});

describe("Failed only", () => {
  // The list had followed 500 entries to their end; the filter's page brings 6. The status said "6
  // entries" while no row showed: the list's scroll position still pointed 500 rows down.
  it("shows the failed entries after the list was scrolled to the end of a long page", async () => {
    const all: ExchangeSummary[] = Array.from({ length: 500 }, (_, i) => exchangeSummary(500 - i, { path: `/v1/accounts/a${500 - i}` }));
    const failed = all.slice(0, 6).map((e) => ({ ...e, status: 400, code: "FORMAT_ERROR" }));
    renderWorkbench(() => <InspectorScreen />, {
      routes: {
        "GET /traffic": (call) => json({ entries: call.query.get("failed") === "true" ? failed : all, nextBefore: null }),
      },
      screen: "inspector",
    });
    const list = await screen.findByRole("listbox", { name: "Exchanges" });
    // Opened at its newest row, far down a list of 500.
    await waitFor(() => expect(within(list).getAllByRole("option").at(-1)).toHaveTextContent("/v1/accounts/a500"));
    expect(within(list).queryAllByRole("option").some((o) => o.textContent?.includes("/a1/"))).toBe(false);
    await userEvent.click(screen.getByRole("checkbox", { name: "Failed only" }));
    await waitFor(() => expect(screen.getByText(/^6 entries/)).toBeInTheDocument());
    expect(within(list).getAllByRole("option")).toHaveLength(6);
  });
});

describe("Clear traffic", () => {
  it("asks first, then empties the list and says how many entries went", async () => {
    const { calls } = renderWorkbench(() => (<><InspectorScreen /><Notices /></>), {
      routes: {
        "GET /traffic": json({ entries: [exchangeSummary(2), exchangeSummary(1)], nextBefore: null }),
        "DELETE /traffic": json({ removed: 2, through: 2 }),
      },
      screen: "inspector",
    });
    const list = await screen.findByRole("listbox", { name: "Exchanges" });
    await waitFor(() => expect(within(list).getAllByRole("option")).toHaveLength(2));
    await userEvent.click(screen.getByRole("button", { name: "Clear traffic…" }));
    const dialog = screen.getByRole("dialog", { name: "Clear the traffic?" });
    expect(dialog).toHaveTextContent("journeys the Flow view draws");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "Clear traffic…" }));
    await userEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Clear traffic" }));
    await waitFor(() => expect(calls.some((c) => c.method === "DELETE" && c.path === "/traffic")).toBe(true));
    expect(await screen.findByRole("region", { name: "No exchanges here yet" })).toBeInTheDocument();
    expect(screen.getByText("Traffic cleared: 2 entries removed")).toBeInTheDocument();
  });
});

describe("Check a pasted request", () => {
  it("sends the paste to the gate and shows its verdict step by step", async () => {
    const verdict = {
      form: "curl",
      method: "POST",
      target: PAYMENT_PATH,
      request: { headers: [["digest", "SHA-256=x"]], body: "{}", bodyBytes: 2, bodyBase64: false },
      at: "2026-06-01T12:00:00Z",
      accepted: false,
      failedStep: "digest",
      tpp: OUTSIDE,
      verdict: {
        steps: [{ step: "digest", outcome: "failed", header: "Digest", rule: "Digest over the exact body.", detail: "The Digest does not match" }],
        signingString: "(request-target): post /v1/payments/x",
        signedHeaders: ["digest"],
        likelyCause: "Digest over a different body",
      },
      notes: ["curl -d sends Content-Type: application/x-www-form-urlencoded unless told otherwise"],
    };
    const { calls } = renderWorkbench(() => <InspectorScreen />, {
      routes: { "GET /traffic": json({ entries: [], nextBefore: null }), "POST /verify": json(verdict) },
      screen: "inspector",
    });
    await userEvent.click(await screen.findByRole("button", { name: "Check a pasted request" }));
    const panel = screen.getByRole("region", { name: "Check a pasted request" });
    await userEvent.type(within(panel).getByLabelText("curl command or raw HTTP request"), "curl -d x http://h/v1/x");
    await userEvent.click(within(panel).getByRole("checkbox", { name: /as of the request's own Date/ }));
    await userEvent.click(within(panel).getByRole("button", { name: "Check" }));
    const result = await within(panel).findByRole("article", { name: "Verdict on the pasted request" });
    expect(calls.find((c) => c.path === "/verify")?.body).toEqual({ request: "curl -d x http://h/v1/x", at: "date" });
    expect(within(result).getByRole("heading", { name: "Gate verdict: refused at “digest”" })).toBeInTheDocument();
    expect(within(result).getByRole("list", { name: "Gate verdict" })).toHaveTextContent("digest");
    expect(within(result).getAllByRole("note")[0]).toHaveTextContent("curl -d sends Content-Type");
    expect(within(result).getByLabelText("Signing string the sandbox computed")).toHaveTextContent("(request-target): post");
  });
});
