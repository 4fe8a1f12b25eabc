// The flow view against a mocked traffic API: the diagram's lanes and statuses, live additions, the
// Mermaid export, and presentation mode stepping with the arrow keys.
import { fireEvent, render, screen, waitFor } from "@solidjs/testing-library";
import type { Exchange } from "../../api/traffic";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { renderWorkbench } from "../../test/harness";
import { FakeEventSource } from "../../test/fakeEventSource";
import { json } from "../../test/fetchMock";
import { FlowScreen } from "./FlowScreen";
import { layout, messagesOf } from "./layout";
import { event, exchange, straksJourney } from "./layout.test";
import { SequenceDiagram } from "./SequenceDiagram";

const JOURNEY = {
  id: "payment:p1",
  kind: "payment",
  title: "Straks payment 100.00 NOK to Ola Nordmann",
  tpp: "PSDNO-FSA-ABC123",
  tppSessionId: null,
  status: "ACSC",
  startedAt: "2026-06-01T12:00:00Z",
  lastAt: "2026-06-01T12:00:05Z",
  entries: 8,
  beforeReset: null,
};

/** What presentation reads besides the journey: the personas and forms of the TPP's next step, the clock. */
const PRESENTATION_ROUTES = {
  "GET /personas": json([]),
  "GET /operations": json([]),
  "GET /sca/pending": json([]),
  "GET /sandbox/clock": json({ now: "2026-06-01T12:00:00Z", mode: "frozen", offsetSeconds: 0 }),
  "GET /sandbox/batch-runs": json({ runs: [], scheduled: ["2026-06-01T14:00:00Z"] }),
};

describe("SequenceDiagram", () => {
  it("draws the four lanes, one arrow per message, statuses on the arrows, later ones not yet", () => {
    const model = layout(messagesOf(straksJourney()));
    const { container } = render(() => <SequenceDiagram layout={model} title="Straks payment" current={2} />);
    const svg = screen.getByRole("img", { name: "Sequence diagram" });
    for (const title of ["TPP app", "Bank interface", "PSU (SCA pages)", "Batch simulator"]) expect(svg).toHaveTextContent(title);
    // The exported file says what it shows.
    expect(svg.querySelector(":scope > title")).toHaveTextContent("Straks payment");
    const messages = container.querySelectorAll("g.message");
    expect(messages).toHaveLength(13);
    expect(svg).toHaveTextContent("401 Unauthorized → SCA");
    expect(svg).toHaveTextContent("ACTC → ACCP");
    expect(svg).toHaveTextContent("ACCP → ACSC");
    expect(messages[2]).not.toHaveAttribute("visibility");
    expect(messages[3]).toHaveAttribute("visibility", "hidden");
  });
});

describe("FlowScreen", () => {
  const routes = {
    ...PRESENTATION_ROUTES,
    "GET /journeys": json([JOURNEY]),
    "GET /journeys/payment%3Ap1": json({ journey: JOURNEY, entries: straksJourney() }),
  };

  it("draws the most recent journey and adds its live entries", async () => {
    const { container } = renderWorkbench(() => <FlowScreen />, { routes, live: true });
    await screen.findByRole("img", { name: "Sequence diagram" });
    await waitFor(() => expect(container.querySelectorAll("g.message")).toHaveLength(13));
    const stream = FakeEventSource.find("/traffic/stream")!;
    stream.open();
    stream.emitRaw("entry", event({ id: 999, event: "clock", data: { now: "2026-06-02T00:00:00Z" } }), 999);
    await waitFor(() => expect(container.querySelectorAll("g.message")).toHaveLength(14));
  });

  it("marks a step whose answer the fault plan injected, once the plan has fired", async () => {
    const refused = exchange({ id: 501, path: "/v1/accounts", status: 503, code: "SYSTEM_ERROR" });
    const marker = "injected: 503 maintenance until 02:30 (rule maintenance)";
    const whole: Exchange = {
      ...refused,
      request: { headers: [], body: null, bodyBytes: 0, bodyBase64: false },
      response: {
        headers: [
          ["content-type", "application/json"],
          ["sandbox-injected", marker],
        ],
        body: null,
        bodyBytes: 0,
        bodyBase64: false,
      },
      gate: null,
      tppMessages: [],
      composerSigningString: null,
    };
    const plan = {
      seed: 0,
      rules: [
        {
          id: "maintenance",
          enabled: true,
          match: { path: "/v1/*" },
          effect: { kind: "maintenance", until: "2026-06-01T02:30:00Z" },
          matched: 1,
          fired: 1,
        },
      ],
    };
    renderWorkbench(() => <FlowScreen />, {
      routes: {
        ...PRESENTATION_ROUTES,
        "GET /journeys": json([JOURNEY]),
        "GET /journeys/payment%3Ap1": json({ journey: JOURNEY, entries: [refused] }),
        "GET /faults": json(plan),
        "GET /traffic/501": json(whole),
      },
    });
    const svg = await screen.findByRole("img", { name: "Sequence diagram" });
    await waitFor(() => expect(svg).toHaveTextContent("injected: 503 maintenance until 02:30"));
  });

  it("presenting holds on to the journey on the screen: not read again, and the focus back on Escape", async () => {
    let reads = 0;
    renderWorkbench(() => <FlowScreen />, {
      routes: {
        ...routes,
        // A second read of the journey would take as long as a loaded machine makes it: for ever here.
        "GET /journeys/payment%3Ap1": () => (++reads === 1 ? json({ journey: JOURNEY, entries: straksJourney() }) : new Promise(() => undefined)),
      },
    });
    const present = screen.getByRole("button", { name: "Present journey" });
    await waitFor(() => expect(present).toBeEnabled());
    present.focus();
    await userEvent.keyboard("{Enter}");
    const dialog = await screen.findByRole("dialog", { name: "Presentation" });
    expect(dialog).toHaveTextContent("13 / 13");
    fireEvent.keyDown(document, { key: "Escape" });
    expect(present).toBeEnabled();
    await waitFor(() => expect(present).toHaveFocus());
    expect(reads).toBe(1);
  });

  it("presentation mode steps through the messages with the arrow keys and leaves with Escape", async () => {
    renderWorkbench(() => <FlowScreen />, { routes });
    await screen.findByRole("img", { name: "Sequence diagram" });
    const present = screen.getByRole("button", { name: "Present journey" });
    await waitFor(() => expect(present).toBeEnabled());
    await userEvent.click(present);
    const dialog = await screen.findByRole("dialog", { name: "Presentation" });
    expect(dialog).toHaveTextContent("13 / 13 · following live");
    fireEvent.keyDown(document, { key: "Home" });
    expect(dialog).toHaveTextContent("1 / 13");
    expect(screen.getByLabelText("Current message")).toHaveTextContent("TPP app → Bank interface");
    fireEvent.keyDown(document, { key: "ArrowRight" });
    expect(screen.getByLabelText("Current message")).toHaveTextContent("401 Unauthorized → SCA");
    fireEvent.keyDown(document, { key: "ArrowRight" });
    fireEvent.keyDown(document, { key: "ArrowRight" });
    fireEvent.keyDown(document, { key: "ArrowRight" });
    fireEvent.keyDown(document, { key: "ArrowLeft" });
    expect(dialog).toHaveTextContent("4 / 13");
    fireEvent.keyDown(document, { key: "ArrowRight" });
    expect(screen.getByRole("region", { name: "The PSU's SCA page" })).toBeInTheDocument();
    fireEvent.keyDown(document, { key: "Escape" });
    expect(screen.queryByRole("dialog", { name: "Presentation" })).toBeNull();
    // The focus is back on the button that opened it.
    await waitFor(() => expect(present).toHaveFocus());
  });

  it("follows the newest journey of the current sandbox unless one is pinned; journeys before a reset are listed apart", async () => {
    const older = { ...JOURNEY, id: "payment:p0", title: "Domestic payment 5.00 NOK to Ola Nordmann", beforeReset: "2026-06-01T11:00:00Z" };
    const newer = { ...JOURNEY, id: "payment:p2", title: "Straks payment 7.00 NOK to Ola Nordmann", lastAt: "2026-06-01T12:30:00Z" };
    let journeys = [JOURNEY, older];
    renderWorkbench(() => <FlowScreen />, {
      routes: {
        ...PRESENTATION_ROUTES,
        "GET /journeys": () => json(journeys),
        "GET /journeys/payment%3Ap1": json({ journey: JOURNEY, entries: straksJourney() }),
        "GET /journeys/payment%3Ap2": json({ journey: newer, entries: [] }),
        "GET /journeys/payment%3Ap0": json({ journey: older, entries: [] }),
      },
    });
    const choice = screen.getByRole<HTMLSelectElement>("combobox", { name: "Journey" });
    await screen.findByText(/Straks payment 100\.00 NOK to Ola Nordmann · TPP .* · the newest journey, followed/);
    expect(choice.selectedOptions[0]).toHaveTextContent("The newest journey (follows new traffic)");
    // The journey before the reset says so, in place of its status.
    expect(screen.getByRole("option", { name: /^Domestic payment 5\.00 NOK to Ola Nordmann · before the reset at / })).toBeInTheDocument();
    // A newer journey: followed.
    journeys = [newer, JOURNEY, older];
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    await screen.findByText(/Straks payment 7\.00 NOK to Ola Nordmann · TPP .* · the newest journey, followed/);
    // Pinned: the choice and the hint name the pinned journey, and a newer one does not replace it.
    await userEvent.selectOptions(choice, "payment:p1");
    await screen.findByText(/Straks payment 100\.00 NOK to Ola Nordmann · TPP .* · pinned/);
    expect(choice.selectedOptions[0]).toHaveTextContent(/^Straks payment 100\.00 NOK/);
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    expect(choice.selectedOptions[0]).toHaveTextContent(/^Straks payment 100\.00 NOK/);
    // The old one chosen: marked as gone.
    await userEvent.selectOptions(choice, "payment:p0");
    await screen.findByText(/before the sandbox was reset at .*: its resources are gone/);
  });
});
