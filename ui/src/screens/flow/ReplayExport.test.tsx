// Export for replay against a mocked workbench API (answers checked against the OpenAPI document): the dialog
// says what the flow holds and which TPP recorded it, offers the recording persona's certificate and key with
// the warning that the key is public, and gives commands built from the names the files were saved under —
// from their folder when the desktop's dialog said where (a file saved elsewhere by its whole path).
import { screen, within } from "@solidjs/testing-library";
import { describe, expect, it } from "vitest";
import { renderWorkbench } from "../../test/harness";
import { json } from "../../test/fetchMock";
import { persona } from "../../test/fixtures";
import { journeyStem } from "./JourneyReplayExport";
import { ReplayExport, replayCommands, shellWord } from "./ReplayExport";

const FINGERPRINT = persona().certificateSha256;

describe("replayCommands", () => {
  it("replays the downloads by name, in the folder they were downloaded to", () => {
    expect(
      replayCommands({
        flow: "consent-3f2a9c1e.flow.json",
        state: "consent-3f2a9c1e.state.json",
        archive: "bundled-aisp-pisp.cert-dir.tar",
        certDir: "bundled-aisp-pisp",
        junit: "consent-3f2a9c1e.junit.xml",
      }),
    ).toBe(
      "tar -xf bundled-aisp-pisp.cert-dir.tar\n" +
        "xs2a-sandbox replay consent-3f2a9c1e.flow.json --fixture consent-3f2a9c1e.state.json --cert-dir bundled-aisp-pisp --junit consent-3f2a9c1e.junit.xml",
    );
  });

  it("starts in the flow's folder when the desktop said where, and names a file saved elsewhere by its path", () => {
    expect(
      replayCommands({
        flow: "/home/tester/ci/run 1.flow.json",
        state: "/home/tester/states/start.state.json",
        archive: "/home/tester/ci/bundled-aisp-pisp.cert-dir.tar",
        certDir: "bundled-aisp-pisp",
        junit: "run.junit.xml",
      }).split("\n"),
    ).toEqual([
      "cd /home/tester/ci",
      "tar -xf bundled-aisp-pisp.cert-dir.tar",
      "xs2a-sandbox replay 'run 1.flow.json' --fixture /home/tester/states/start.state.json --cert-dir bundled-aisp-pisp --junit run.junit.xml",
    ]);
  });

  it("quotes for the shell only what needs it", () => {
    expect(shellWord("a-b_c.json")).toBe("a-b_c.json");
    expect(shellWord("it's here")).toBe("'it'\\''s here'");
  });

  it("names a journey's files after its kind and the first part of its id", () => {
    expect(journeyStem("payment:3f2a9c1e-0000-4000-8000-000000000001")).toBe("payment-3f2a9c1e");
    expect(journeyStem("user-lookup:ab/cd")).toBe("user-lookup-ab-cd");
  });
});

describe("ReplayExport", () => {
  it("says what the flow holds and who recorded it, with the persona's key and the warning that it is public", async () => {
    const flow = {
      format: "xs2a-sandbox/flow",
      version: 2,
      state: "journey-1.state.json",
      recordedBy: [{ name: "Sandbox AISP PISP AS", organisationId: "PSDNO-FSA-9C2C0A", certificateSha256: FINGERPRINT }],
      steps: [
        { kind: "exchange", request: { method: "GET", path: "/v1/accounts" }, response: { status: 401 } },
        { kind: "sca", authorisationId: "a-1", drive: { nationalId: "14838510036" } },
        { kind: "exchange", request: { method: "GET", path: "/v1/accounts" }, response: { status: 200 } },
      ],
    };
    renderWorkbench(
      () => (
        <ReplayExport
          source={{
            title: "Export the journey “Consent” for replay",
            stem: "journey-1",
            flowNote: "the journey's requests and the PSU's SCA",
            stateNote: "the sandbox just before it",
            readState: () => Promise.resolve("{}"),
            readFlow: () => Promise.resolve(JSON.stringify(flow)),
          }}
          onClose={() => undefined}
        />
      ),
      { routes: { "GET /personas": json([persona(), persona({ id: "bundled-aisp", name: "Sandbox AISP AS", certificateSha256: "00:11" })]) } },
    );
    const dialog = await screen.findByRole("dialog", { name: "Export the journey “Consent” for replay" });
    const files = await within(dialog).findByRole("table", { name: "Files to save" });
    expect(files).toHaveTextContent(
      "The recorded flow: 3 steps, the journey's requests and the PSU's SCA, recorded by Sandbox AISP PISP AS (organisation PSDNO-FSA-9C2C0A).",
    );
    expect(await within(files).findByRole("button", { name: "Save the certificate and key of Sandbox AISP PISP AS" })).toBeInTheDocument();
    expect(within(files).getByRole("note")).toHaveTextContent("This private key is public.");
    expect(within(dialog).getByRole("region", { name: "Replay it" })).toHaveTextContent(
      "xs2a-sandbox replay journey-1.flow.json --fixture journey-1.state.json --cert-dir bundled-aisp-pisp --junit journey-1.junit.xml",
    );
  });

  it("tells the user to use their own certificate folder when no persona recorded it", async () => {
    const flow = {
      format: "xs2a-sandbox/flow",
      version: 2,
      recordedBy: [{ name: "Acme TPP", certificateSha256: "AA:BB" }],
      steps: [],
    };
    renderWorkbench(
      () => (
        <ReplayExport
          source={{
            title: "Export",
            stem: "s",
            flowNote: "everything since",
            stateNote: "the snapshot's state",
            readState: () => Promise.resolve("{}"),
            readFlow: () => Promise.resolve(JSON.stringify(flow)),
          }}
          onClose={() => undefined}
        />
      ),
      { routes: { "GET /personas": json([persona()]) } },
    );
    const files = await screen.findByRole("table", { name: "Files to save" });
    expect(files).toHaveTextContent("Acme TPP is not one of the workbench's personas");
    expect(screen.getByRole("region", { name: "Replay it" })).toHaveTextContent("--cert-dir YOUR-CERT-DIR");
    expect(screen.getByRole("region", { name: "Replay it" })).not.toHaveTextContent("tar -xf");
  });
});
