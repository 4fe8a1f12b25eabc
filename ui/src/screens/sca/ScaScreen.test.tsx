// The SCA screen: its empty state, stored callbacks with the persona that got the PSU-ID, callbacks
// arriving live, failures' parameters, and opening a pasted link.
import { fireEvent, screen, waitFor, within } from "@solidjs/testing-library";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ScaScreen } from "./ScaScreen";
import { renderWorkbench } from "../../test/harness";
import { json } from "../../test/fetchMock";
import { persona } from "../../test/fixtures";

const PERSONAS = [persona({ id: "bundled-aisp-pisp", name: "AISP + PISP (bundled)" })];

describe("ScaScreen", () => {
  it("says how to get a callback when there is none", async () => {
    renderWorkbench(() => <ScaScreen />, { routes: { "GET /sca/callbacks": json([]), "GET /personas": json([]) } });
    expect(await screen.findByRole("heading", { name: "No SCA callbacks yet" })).toBeInTheDocument();
  });

  it("lists stored callbacks and adds live ones first", async () => {
    const { stream } = renderWorkbench(() => <ScaScreen />, {
      live: true,
      routes: {
        "GET /personas": json(PERSONAS),
        "GET /sca/callbacks": json([
          {
            id: "cb-1",
            at: "2026-06-01T11:00:00Z",
            personaId: null,
            outcome: "failure",
            psuId: null,
            psuCorporateId: null,
            context: null,
            tppSessionId: null,
            system: "sandbox",
            status: "cancelled",
            code: "SCA_CANCELLED",
            message: "The PSU cancelled",
            query: { system: "sandbox" },
          },
        ]),
      },
    });
    const table = await screen.findByRole("table", { name: "SCA callbacks, newest first" });
    expect(table).toHaveTextContent("The PSU cancelled");
    stream().open();
    stream().emit(
      "sca.callback",
      {
        id: "cb-2",
        at: "2026-06-01T12:00:00Z",
        personaId: "bundled-aisp-pisp",
        outcome: "success",
        psuId: "psu-uuid-1",
        context: "PRIVATE",
        tppSessionId: "s-1",
        query: { "psu-id": "psu-uuid-1" },
      },
      7,
    );
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(3));
    const first = within(table).getAllByRole("row")[1]!;
    expect(first).toHaveTextContent("psu-uuid-1");
    expect(first).toHaveTextContent("AISP + PISP (bundled)");
    expect(first).toHaveTextContent("PRIVATE");
  });

  it("opens a pasted scaRedirect URL in a popup in the browser", async () => {
    const open = vi.spyOn(window, "open").mockReturnValue({} as Window);
    renderWorkbench(() => <ScaScreen />, { routes: { "GET /sca/callbacks": json([]), "GET /personas": json([]) } });
    await userEvent.type(screen.getByLabelText("scaRedirect URL"), "http://127.0.0.1:8080/sca/abc");
    await userEvent.click(screen.getByRole("button", { name: "Open in the SCA window" }));
    // The PSU window's mark: the end of the SCA shows where the PSU is sent before it goes on.
    expect(open).toHaveBeenCalledWith("http://127.0.0.1:8080/sca/abc?workbench=1", "xs2a-sca", expect.any(String));
  });

  it("uses the desktop's SCA window when running in the shell", async () => {
    const invoke = vi.fn(() => Promise.resolve(null));
    window.__TAURI__ = { core: { invoke } as never };
    try {
      renderWorkbench(() => <ScaScreen />, { routes: { "GET /sca/callbacks": json([]), "GET /personas": json([]) } });
      fireEvent.input(screen.getByLabelText("scaRedirect URL"), { target: { value: "http://127.0.0.1:1/sca/x" } });
      fireEvent.submit(screen.getByRole("form", { name: "Open an SCA link" }));
      await waitFor(() => expect(invoke).toHaveBeenCalledWith("open_sca_window", { url: "http://127.0.0.1:1/sca/x?workbench=1" }));
    } finally {
      delete window.__TAURI__;
    }
  });
});

describe("ScaScreen: waiting for the PSU", () => {
  const PENDING = {
    id: "auth-7",
    kind: "consent",
    tppId: "PSDNO-FSA-9C2C0A",
    tppName: "Sandbox AISP PISP AS",
    startedAt: "2026-06-01T12:00:00Z",
    expiresAt: "2026-06-01T12:30:00Z",
    scaRedirect: "http://127.0.0.1:8080/sca/auth-7",
    step: "identify",
    paymentIds: [],
    basketId: null,
  };

  it("lists the authorisations waiting for the PSU and opens one in the SCA window", async () => {
    const open = vi.spyOn(window, "open").mockReturnValue({} as Window);
    renderWorkbench(() => <ScaScreen />, {
      routes: { "GET /sca/callbacks": json([]), "GET /personas": json([]), "GET /sca/pending": json([PENDING]) },
    });
    const table = await screen.findByRole("table", { name: "Authorisations waiting for the PSU, newest first" });
    const row = within(table).getAllByRole("row")[1]!;
    expect(row).toHaveTextContent("Consent");
    expect(row).toHaveTextContent("Sandbox AISP PISP AS");
    await userEvent.click(within(row).getByRole("button", { name: /Open the SCA of Sandbox AISP PISP AS's consent/ }));
    expect(open).toHaveBeenCalledWith("http://127.0.0.1:8080/sca/auth-7?workbench=1", "xs2a-sca", expect.any(String));
  });

  it("says when nothing waits, and names this service in the link to paste", async () => {
    renderWorkbench(() => <ScaScreen />, {
      routes: { "GET /sca/callbacks": json([]), "GET /personas": json([]), "GET /sca/pending": json([]) },
    });
    expect(await screen.findByText("No authorisation is waiting for the PSU.")).toBeInTheDocument();
    expect(screen.getByLabelText("scaRedirect URL")).toHaveAttribute("placeholder", "http://127.0.0.1:8080/sca/…");
  });
});

describe("ScaScreen: sent back to the TPP", () => {
  it("shows where each finished SCA sent the PSU, with the psu-id and a link onwards", async () => {
    renderWorkbench(() => <ScaScreen />, {
      routes: {
        "GET /sca/callbacks": json([]),
        "GET /personas": json([]),
        "GET /sca/pending": json([]),
        "GET /sca/finished": json([
          {
            id: "auth-9",
            tppId: "PSDNO-FSA-ACME",
            tppName: "Acme TPP",
            kind: "consent",
            outcome: "SUCCEEDED",
            startedAt: "2026-06-01T12:00:00Z",
            redirect: "https://tpp.example/cb?psu-id=psu-9&tpp-session-id=s-1&context=CORPORATE&psu-corporate-id=corp-1",
            redirectUri: "https://tpp.example/cb",
            parameters: [
              ["psu-id", "psu-9"],
              ["tpp-session-id", "s-1"],
              ["context", "CORPORATE"],
              ["psu-corporate-id", "corp-1"],
            ],
            psuId: "psu-9",
            psuCorporateId: "corp-1",
          },
        ]),
      },
    });
    const table = await screen.findByRole("table", { name: "Authorisations finished, and where the PSU was sent, newest first" });
    const row = within(table).getAllByRole("row")[1]!;
    const values = within(row).getByLabelText("Values sent back to Acme TPP");
    expect(values).toHaveTextContent("psu-idpsu-9");
    expect(values).toHaveTextContent("psu-corporate-idcorp-1");
    expect(within(row).getByRole("link", { name: "Continue to Acme TPP" })).toHaveAttribute(
      "href",
      "https://tpp.example/cb?psu-id=psu-9&tpp-session-id=s-1&context=CORPORATE&psu-corporate-id=corp-1",
    );
  });
});
