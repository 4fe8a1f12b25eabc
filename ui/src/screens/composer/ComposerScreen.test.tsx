// The composer: its empty states, an operation filling the form, Ctrl+Enter sending the draft, Open SCA,
// the preview, history reopening a past request, and the service's messages at the right row.
import { fireEvent, screen, waitFor, within } from "@solidjs/testing-library";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ComposerScreen } from "./ComposerScreen";
import { renderWorkbench } from "../../test/harness";
import { json, refusal } from "../../test/fetchMock";
import { persona } from "../../test/fixtures";
import type { Draft, Operation, Persona, Sent } from "../../api/types";

// CodeMirror is not loaded in jsdom: the editors stay plain labelled textareas.
vi.mock("../../components/codemirror", () => {
  throw new Error("no CodeMirror in tests");
});

const PERSONA: Persona = {
  id: "bundled-aisp-pisp",
  name: "AISP + PISP (bundled)",
  source: "bundled",
  roles: ["PSP_AI", "PSP_PI"],
  organisationId: "PSDNO-FSA-ABC123",
  subject: "CN=Acme",
  issuer: "CN=Test CA",
  serial: "1A2B",
  certificateSha256: "E7:7A:7E:74:88:72:25:91:97:07:22:96:DA:BF:2C:36:10:ED:A0:3C:E2:E7:01:D5:B0:95:8D:D4:59:83:B1:93",
  notBefore: "2026-01-01T00:00:00Z",
  notAfter: "2028-01-01T00:00:00Z",
  status: "valid",
  problem: null,
  psuId: "7d4b1c9e-0000-4000-8000-000000000001",
  psuCorporateId: null,
  tppSessionId: "5e1c0de0-0000-4000-8000-000000000002",
};

const STRAKS: Operation = {
  id: "create-straks",
  operationId: "create_payment",
  hints: [],
  group: "Payments",
  name: "Create instant payment",
  method: "POST",
  path: "/v1/payments/instant-norwegian-domestic-credit-transfers-straks",
  pathParams: [],
  query: [],
  headers: [
    ["PSU-ID", "{{persona.psuId}}"],
    ["TPP-Redirect-URI", "{{callbackUrl}}?persona=bundled-aisp-pisp"],
  ],
  body: '{"instructedAmount":{"amount":"100.00","currency":"NOK"}}',
  role: "PSP_PI",
  description: "A straks payment, executed when the SCA completes.",
};

const STATUS: Operation = {
  id: "payment-status",
  operationId: "payment_status",
  hints: [],
  group: "Payments",
  name: "Payment status",
  method: "GET",
  path: "/v1/{paymentService}/{paymentProduct}/{paymentId}/status",
  pathParams: [
    { name: "paymentService", description: "The payment service", follows: "payment", source: null, values: ["payments", "periodic-payments", "bulk-payments"] },
    {
      name: "paymentProduct",
      description: "The payment product",
      follows: "payment",
      source: null,
      values: ["norwegian-domestic-credit-transfers", "instant-norwegian-domestic-credit-transfers-straks"],
    },
    { name: "paymentId", description: "The payment's id", follows: "payment", source: null, values: null },
  ],
  query: [],
  headers: [],
  body: null,
  role: "PSP_PI",
  description: "The payment's status.",
};

function sentFor(draft: Draft, body: unknown, status = 201): Sent {
  return {
    id: "h-1",
    at: "2026-06-01T12:00:01Z",
    draft,
    request: { method: draft.method, url: `http://127.0.0.1:8080${draft.path}`, headers: [["Date", "Mon, 01 Jun 2026 12:00:01 GMT"]] },
    signingString: "date: Mon, 01 Jun 2026 12:00:01 GMT",
    response: { status, headers: [["Content-Type", "application/json"]], body: JSON.stringify(body) },
    durationMs: 12,
  };
}

const ACCOUNTS: Operation = {
  id: "accounts",
  operationId: "accounts",
  hints: [],
  group: "Accounts",
  name: "Read accounts",
  method: "GET",
  path: "/v1/accounts",
  pathParams: [],
  query: [],
  headers: [],
  body: null,
  role: "PSP_AI",
  description: "The PSU's accounts.",
};

const BASE_ROUTES = {
  "GET /operations": json([STRAKS, STATUS]),
  "GET /personas": json([PERSONA]),
  "GET /compose/history": json([]),
};

describe("ComposerScreen", () => {
  it("says what to do before anything is sent", async () => {
    renderWorkbench(() => <ComposerScreen />, { screen: "composer", routes: BASE_ROUTES });
    expect(await screen.findByRole("heading", { name: "Nothing sent yet" })).toBeInTheDocument();
  });

  it("says to make a persona first when there is none", async () => {
    renderWorkbench(() => <ComposerScreen />, { screen: "composer", routes: { ...BASE_ROUTES, "GET /personas": json([]) } });
    expect(await screen.findByRole("heading", { name: "No personas" })).toBeInTheDocument();
  });

  it("fills the form from the operation, with its headers editable", async () => {
    renderWorkbench(() => <ComposerScreen />, { screen: "composer", routes: BASE_ROUTES });
    await waitFor(() => expect(screen.getByLabelText("Path")).toHaveValue(STRAKS.path));
    expect(screen.getByLabelText("Method")).toHaveValue("POST");
    expect(screen.getByLabelText("Header 1 name")).toHaveValue("PSU-ID");
    expect(screen.getByLabelText("Header 1 value")).toHaveValue("{{persona.psuId}}");
    expect(screen.getByLabelText("Request body")).toHaveValue(STRAKS.body);
    // The persona's PSU-ID is shown and editable.
    expect(screen.getByLabelText("PSU-ID")).toHaveValue(PERSONA.psuId);
  });

  it("sends with Ctrl+Enter and offers Open SCA for an answer that links to it", async () => {
    const open = vi.spyOn(window, "open").mockReturnValue({} as Window);
    const { calls } = renderWorkbench(() => <ComposerScreen />, {
      screen: "composer",
      routes: {
        ...BASE_ROUTES,
        "POST /compose/send": (call) =>
          json(
            sentFor(call.body as Draft, {
              paymentId: "pay-1",
              transactionStatus: "RCVD",
              _links: { scaRedirect: { href: "http://127.0.0.1:8080/sca/auth-1" } },
            }),
          ),
      },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByLabelText("Path")).toHaveValue(STRAKS.path));
    await user.clear(screen.getByLabelText("Header 1 value"));
    await user.type(screen.getByLabelText("Header 1 value"), "psu-typed");
    screen.getByLabelText("Request body").focus();
    await user.keyboard("{Control>}{Enter}{/Control}");

    await waitFor(() => expect(calls.filter((c) => c.path === "/compose/send")).toHaveLength(1));
    expect(calls.find((c) => c.path === "/compose/send")?.body).toEqual({
      personaId: "bundled-aisp-pisp",
      method: "POST",
      path: STRAKS.path,
      headers: [
        ["PSU-ID", "psu-typed"],
        ["TPP-Redirect-URI", "{{callbackUrl}}?persona=bundled-aisp-pisp"],
      ],
      body: STRAKS.body,
    });
    const response = await screen.findByRole("region", { name: "Response" });
    expect(within(response).getByRole("status")).toHaveTextContent("201");
    await user.click(within(response).getByRole("button", { name: "Open SCA" }));
    expect(open).toHaveBeenCalledWith("http://127.0.0.1:8080/sca/auth-1?workbench=1", "xs2a-sca", expect.any(String));
  });

  it("fills a path parameter from an earlier answer", async () => {
    renderWorkbench(() => <ComposerScreen />, {
      screen: "composer",
      routes: {
        ...BASE_ROUTES,
        "POST /compose/send": (call) =>
          json(
            sentFor(call.body as Draft, {
              paymentId: "pay-9",
              transactionStatus: "RCVD",
              // As the service links a payment it created.
              _links: {
                self: { href: "/v1/payments/instant-norwegian-domestic-credit-transfers-straks/pay-9" },
                status: { href: "/v1/payments/instant-norwegian-domestic-credit-transfers-straks/pay-9/status" },
              },
            }),
          ),
      },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByLabelText("Path")).toHaveValue(STRAKS.path));
    await user.click(screen.getByRole("button", { name: "Send" }));
    await screen.findByRole("region", { name: "Response" });
    await user.selectOptions(screen.getByLabelText("Operation"), "payment-status");
    expect(screen.getByLabelText("paymentId")).toHaveValue("pay-9");
    // The service and product of the payment the status follows, from the answer's link; both are choices.
    expect(screen.getByLabelText("paymentProduct")).toHaveValue("instant-norwegian-domestic-credit-transfers-straks");
    expect(screen.getByLabelText("paymentService").tagName).toBe("SELECT");
    expect(screen.getByLabelText("Path")).toHaveValue(
      "/v1/payments/instant-norwegian-domestic-credit-transfers-straks/pay-9/status",
    );
  });

  it("sends nothing while the personas are still on their way, says why, then sends the operation chosen last", async () => {
    let personasArrive!: () => void;
    const arrived = new Promise<void>((resolve) => (personasArrive = resolve));
    const { calls } = renderWorkbench(() => <ComposerScreen />, {
      screen: "composer",
      routes: {
        ...BASE_ROUTES,
        "GET /operations": json([STRAKS, ACCOUNTS]),
        "GET /personas": async () => {
          await arrived;
          return json([PERSONA]);
        },
        "POST /compose/send": (call) => json(sentFor(call.body as Draft, { accounts: [] }, 200)),
      },
    });
    const user = userEvent.setup();
    // One operation chosen, then another, and Send at once: the personas are still being read.
    await waitFor(() => expect(screen.getByLabelText("Path")).toHaveValue(STRAKS.path));
    await user.selectOptions(screen.getByLabelText("Operation"), "accounts");
    await user.click(screen.getByRole("button", { name: "Send" }));
    const request = screen.getByRole("form", { name: "Request" });
    expect(within(request).getByRole("alert")).toHaveTextContent("Not sent: the personas are still being read");
    expect(calls.filter((c) => c.path === "/compose/send")).toEqual([]);

    personasArrive();
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Persona" })).toHaveValue(PERSONA.id));
    await user.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(calls.filter((c) => c.path === "/compose/send")).toHaveLength(1));
    expect(calls.find((c) => c.path === "/compose/send")?.body).toEqual({ personaId: PERSONA.id, method: "GET", path: "/v1/accounts", headers: [] });
    expect(within(await screen.findByRole("region", { name: "Response" })).getByRole("status")).toHaveTextContent("200");
  });

  it("refuses a path parameter still empty at its field and sends nothing", async () => {
    const { calls } = renderWorkbench(() => <ComposerScreen />, { screen: "composer", routes: BASE_ROUTES });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByLabelText("Path")).toHaveValue(STRAKS.path));
    await user.selectOptions(screen.getByLabelText("Operation"), "payment-status");
    await user.click(screen.getByRole("button", { name: "Send" }));
    const field = screen.getByLabelText("paymentId");
    await waitFor(() => expect(field).toHaveAttribute("aria-invalid", "true"));
    expect(field).toHaveAccessibleErrorMessage(/no payment was answered in this composer yet/);
    await user.click(screen.getByRole("button", { name: "Copy as curl" }));
    expect(calls.filter((c) => c.method === "POST")).toEqual([]);
  });

  it("says so when an operation needs another persona", async () => {
    const aisp = persona({ id: "bundled-aisp", name: "Sandbox AISP AS", roles: ["PSP_AI"] });
    renderWorkbench(() => <ComposerScreen />, {
      screen: "composer",
      routes: { ...BASE_ROUTES, "GET /personas": json([aisp, PERSONA]), "GET /operations": json([ACCOUNTS, STRAKS]) },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByLabelText("Path")).toHaveValue("/v1/accounts"));
    expect(screen.getByRole("combobox", { name: "Persona" })).toHaveValue("bundled-aisp");
    await user.selectOptions(screen.getByLabelText("Operation"), "create-straks");
    expect(screen.getByRole("combobox", { name: "Persona" })).toHaveValue("bundled-aisp-pisp");
    const region = screen.getByRole("region", { name: "Signing persona" });
    expect(within(region).getByRole("status")).toHaveTextContent(
      "Persona switched to AISP + PISP (bundled): Sandbox AISP AS does not have PSP_PI, which “Create instant payment” needs.",
    );
  });

  it("previews the headers and the signing string", async () => {
    renderWorkbench(() => <ComposerScreen />, {
      screen: "composer",
      routes: {
        ...BASE_ROUTES,
        "POST /compose/preview": json({
          method: "POST",
          url: "http://127.0.0.1:8080/v1/payments/instant-norwegian-domestic-credit-transfers-straks",
          headers: [["Digest", "SHA-256=abc="], ["Signature", "keyId=..."]],
          signedHeaders: ["digest", "date"],
          signingString: "(request-target): post /v1/payments/…\ndigest: SHA-256=abc=",
          digest: "SHA-256=abc=",
          omitted: [{ header: "PSU-ID", reason: "the persona has no PSU-ID yet" }],
        }),
      },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByLabelText("Path")).toHaveValue(STRAKS.path));
    await user.click(screen.getByRole("button", { name: "Preview" }));
    const preview = await screen.findByRole("region", { name: "Preview" });
    expect(within(preview).getByLabelText("Signing string")).toHaveTextContent("(request-target): post");
    expect(within(preview).getByRole("table", { name: "Headers to be sent" })).toHaveTextContent("SHA-256=abc=");
    expect(within(preview).getByRole("list", { name: "Headers left out" })).toHaveTextContent(
      "PSU-ID left out: the persona has no PSU-ID yet",
    );
  });

  it("reopens a past request from the history for editing", async () => {
    const past: Draft = {
      personaId: "bundled-aisp-pisp",
      method: "GET",
      path: "/v1/accounts",
      query: "withBalance=true",
      headers: [["TPP-Session-ID", "s-1"]],
    };
    renderWorkbench(() => <ComposerScreen />, {
      screen: "composer",
      routes: {
        ...BASE_ROUTES,
        "GET /compose/history": json([
          { id: "h-7", at: "2026-06-01T11:00:00Z", personaId: "bundled-aisp-pisp", method: "GET", path: "/v1/accounts", status: 401, durationMs: 9 },
        ]),
        "GET /compose/history/h-7": json(sentFor(past, { tppMessages: [] }, 401)),
      },
    });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByLabelText("Path")).toHaveValue(STRAKS.path));
    const history = screen.getByRole("list", { name: "Sent requests" });
    await user.click(within(history).getByRole("button", { name: /Reopen GET \/v1\/accounts/ }));
    await waitFor(() => expect(screen.getByLabelText("Path")).toHaveValue("/v1/accounts"));
    expect(screen.getByLabelText("Method")).toHaveValue("GET");
    expect(screen.getByLabelText("Operation")).toHaveValue("");
    expect(screen.getByLabelText("Query parameter 1 name")).toHaveValue("withBalance");
    expect(screen.getByLabelText("Header 1 name")).toHaveValue("TPP-Session-ID");
    expect(screen.getByLabelText("Request body")).toHaveValue("");
    expect(within(screen.getByRole("region", { name: "Response" })).getByRole("status")).toHaveTextContent("401");
  });

  it("shows the service's refusal of the draft at the header row it names", async () => {
    renderWorkbench(() => <ComposerScreen />, {
      screen: "composer",
      routes: {
        ...BASE_ROUTES,
        "POST /compose/send": refusal(400, { code: "FORMAT_ERROR", path: "headers[1]", text: "headers[1]: not a header name" }),
      },
    });
    await waitFor(() => expect(screen.getByLabelText("Path")).toHaveValue(STRAKS.path));
    fireEvent.submit(screen.getByRole("form", { name: "Request" }));
    await waitFor(() => expect(screen.getByLabelText("Header 2 name")).toHaveAttribute("aria-invalid", "true"));
    expect(screen.getByLabelText("Header 2 name")).toHaveAccessibleErrorMessage("headers[1]: not a header name");
    expect(screen.getByLabelText("Header 1 name")).toHaveAttribute("aria-invalid", "false");
  });
});
