// Export for replay (docs/fixtures.md): the files that replay a journey, or everything since a snapshot,
// headless with `xs2a-sandbox replay` — the recorded flow, the state it starts from, and the certificate and
// key of the TPP that recorded it — each saved on its own (the desktop's save dialog, a download in a browser),
// and the commands that replay them, built from the names they were saved under, to copy as they are. The flow
// is read once on open to say what it holds and which TPP recorded it (its `recordedBy`, matched to a persona by
// the certificate's fingerprint).
import { createResource, createSignal, createUniqueId, For, Show } from "solid-js";
import type { FlowFile, Persona } from "../../api/types";
import { saveFile } from "../../api/native";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { CopyButton } from "../../components/CopyButton";
import { Dialog } from "../../components/Dialog";
import { ErrorMessages } from "../../components/ErrorMessages";
import { Loading } from "../../components/Loading";
import { createActions } from "../../lib/action";
import { count } from "../../lib/format";
import { valueOf } from "../../lib/resource";
import { certDirNames, KeyWarning, keyOffered, saveCertDir } from "../composer/CertDir";

/** What is exported and how to read its two files. */
export interface ReplaySource {
  /** The dialog's title. */
  title: string;
  /** The files' common stem: `<stem>.flow.json`, `<stem>.state.json`, `<stem>.junit.xml`. */
  stem: string;
  /** What the flow holds, in a few words ("the journey's exchanges and the PSU's SCA"). */
  flowNote: string;
  /** What the state file holds ("the sandbox just before the journey's first request"). */
  stateNote: string;
  readState: () => Promise<string>;
  /** The flow, its `state` naming `stateFile`. */
  readFlow: (stateFile: string) => Promise<string>;
}

type Recorder = NonNullable<FlowFile["recordedBy"]>[number];

/** `Sandbox AISP AS (organisation PSDNO-FSA-…)`. */
function describe(recorder: Recorder): string {
  return `${recorder.name ?? "a TPP"}${recorder.organisationId ? ` (organisation ${recorder.organisationId})` : ""}`;
}

/** A word for the shell as it is when it needs no quoting, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w./:@+-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** Where a file was saved: the folder and the name, when the desktop's dialog gave a whole path. */
function placeOf(where: string): { folder: string | null; name: string } {
  const cut = Math.max(where.lastIndexOf("/"), where.lastIndexOf("\\"));
  return cut < 0 ? { folder: null, name: where } : { folder: where.slice(0, cut) || "/", name: where.slice(cut + 1) };
}

/** The names the commands use: the saved ones, else the names offered. */
export interface SavedNames {
  flow: string;
  state: string;
  archive: string | null;
  certDir: string;
  junit: string;
}

/**
 * The commands that replay the saved files: from their folder when the desktop said where they went (a file
 * saved elsewhere by its whole path), else from the folder the browser downloaded them to.
 */
export function replayCommands(names: SavedNames): string {
  const places = [names.flow, names.state, ...(names.archive ? [names.archive] : [])].map(placeOf);
  // The folder of the first file saved by its whole path (the desktop's dialog): the replay runs from there.
  const folder = places.find((place) => place.folder !== null)?.folder ?? null;
  const refer = (where: string) => {
    const place = placeOf(where);
    return shellWord(place.folder === null || place.folder === folder ? place.name : where);
  };
  const lines: string[] = [];
  if (folder) lines.push(`cd ${shellWord(folder)}`);
  if (names.archive) lines.push(`tar -xf ${refer(names.archive)}`);
  lines.push(
    `xs2a-sandbox replay ${refer(names.flow)} --fixture ${refer(names.state)} --cert-dir ${shellWord(names.certDir)} --junit ${shellWord(names.junit)}`,
  );
  return lines.join("\n");
}

export function ReplayExport(props: { source: ReplaySource; onClose: () => void }) {
  const wb = useWorkbench();
  const stateName = () => `${props.source.stem}.state.json`;
  const [flow] = createResource(async () => JSON.parse(await props.source.readFlow(stateName())) as FlowFile);
  const [personas] = createResource(() => wb.client.personas.list());
  const [saved, setSaved] = createSignal<Record<string, string>>({});
  const { busy, error, run } = createActions();

  const recorders = () => valueOf(flow)?.recordedBy ?? [];
  const personaOf = (r: Recorder): Persona | undefined =>
    valueOf(personas)?.find((p) => p.certificateSha256 === r.certificateSha256);
  // The TPP whose certificate the commands replay with: the recording's (the first, if several signed).
  const signer = (): Persona | undefined => {
    const first = recorders()[0];
    if (first) return personaOf(first);
    return valueOf(personas)?.find((p) => p.id === "bundled-aisp-pisp");
  };

  const save = (key: string, name: string, read: () => Promise<string>, type: string) =>
    run(key, async () => {
      const where = await saveFile(name, await read(), type);
      if (where) setSaved((known) => ({ ...known, [key]: where }));
    });
  const saveState = () => save("state", stateName(), props.source.readState, "application/json");
  const saveFlow = () => {
    // The flow names the state file as it was saved, when it was.
    const stateFile = placeOf(saved().state ?? stateName()).name;
    const readFlow = props.source.readFlow;
    return save("flow", `${props.source.stem}.flow.json`, () => readFlow(stateFile), "application/json");
  };
  const saveKey = (persona: Persona) =>
    run(`key-${persona.id}`, async () => {
      const where = await saveCertDir(wb.client, persona);
      if (where) setSaved((known) => ({ ...known, [`key-${persona.id}`]: where }));
    });

  // One row per TPP that recorded; a flow no certificate signed replays with any, the bundled one with both roles.
  const keyRows = (): KeyRowData[] =>
    recorders().length > 0
      ? recorders().map((recorder) => ({ recorder, persona: personaOf(recorder) }))
      : [{ recorder: null, persona: signer() }];

  const commands = () => {
    const persona = signer();
    const usable = persona && keyOffered(persona);
    return replayCommands({
      flow: saved().flow ?? `${props.source.stem}.flow.json`,
      state: saved().state ?? stateName(),
      archive: usable ? (saved()[`key-${persona.id}`] ?? certDirNames(persona).archive) : null,
      certDir: usable ? certDirNames(persona).folder : "YOUR-CERT-DIR",
      junit: `${props.source.stem}.junit.xml`,
    });
  };

  const headingId = createUniqueId();

  return (
    <Dialog
      title={props.source.title}
      description="These files replay it headless, e.g. in CI, with the same binary: save each, then run the commands below."
      onClose={props.onClose}
    >
      <div class="replay-export">
        <ErrorMessages error={(flow.error as unknown) ?? (personas.error as unknown)} title="The flow could not be read." />
        <Show when={valueOf(flow)} fallback={<Show when={flow.loading}><Loading label="Reading the flow…" /></Show>}>
          {(f) => (
            <table class="data">
              <caption>Files to save</caption>
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Holds</th>
                  <th scope="col">Save</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">
                    <code>{stateName()}</code>
                  </th>
                  <td>The state it starts from: {props.source.stateNote}.</td>
                  <td>
                    <Button busy={busy() === "state"} onClick={() => void saveState()}>
                      Save the state
                    </Button>
                    <Saved where={saved().state} />
                  </td>
                </tr>
                <tr>
                  <th scope="row">
                    <code>{props.source.stem}.flow.json</code>
                  </th>
                  <td>
                    The recorded flow: {count(f().steps.length, "step")}, {props.source.flowNote}
                    <Show when={recorders().length > 0} fallback=" (no signed request in it)">
                      {", recorded by "}
                      {recorders().map(describe).join(" and ")}
                    </Show>
                    .
                  </td>
                  <td>
                    <Button variant="primary" busy={busy() === "flow"} onClick={() => void saveFlow()}>
                      Save the flow
                    </Button>
                    <Saved where={saved().flow} />
                  </td>
                </tr>
                <For each={keyRows()}>
                  {(row) => <KeyRow row={row} busy={busy()} saved={saved()} onSave={(p) => void saveKey(p)} />}
                </For>
              </tbody>
            </table>
          )}
        </Show>
        <Show when={recorders().length > 1}>
          <p class="hint">
            Several TPPs signed these requests; a replay signs every step with one certificate, so the other TPPs'
            answers may differ from the recording's.
          </p>
        </Show>
        <ErrorMessages error={error()} />
        <section aria-labelledby={headingId}>
          <h4 id={headingId}>Replay it</h4>
          <p class="hint">
            In the folder the files were saved to. <code>--fixture</code> starts a sandbox of the replay's own from the
            state file and stops it afterwards; the exit code is 0 when every step answers as recorded, and the JUnit
            report has a test case per step.
          </p>
          <pre class="commands"><code>{commands()}</code></pre>
          <div class="actions">
            <CopyButton text={commands} label="Copy the commands" />
            <Button onClick={() => props.onClose()}>Close</Button>
          </div>
        </section>
      </div>
    </Dialog>
  );
}

/** Where a file went, once saved. */
function Saved(props: { where: string | undefined }) {
  return <Show when={props.where}>{(where) => <span role="status"> Saved: {where()}</span>}</Show>;
}

interface KeyRowData {
  /** The TPP that recorded (null: no request in the flow was signed). */
  recorder: Recorder | null;
  /** Its persona, when the workbench has one with that certificate. */
  persona: Persona | undefined;
}

/** The certificate and key to replay with: to save (with the warning), or what to use instead. */
function KeyRow(props: { row: KeyRowData; busy: string | null; saved: Record<string, string>; onSave: (p: Persona) => void }) {
  const who = () => (props.row.recorder ? describe(props.row.recorder) : "No request in it was signed, so any certificate");
  return (
    <Show
      when={props.row.persona}
      fallback={
        <tr>
          <th scope="row">Your certificate folder</th>
          <td colSpan={2}>
            {who()} is not one of the workbench's personas (certificate SHA-256{" "}
            <code>{props.row.recorder?.certificateSha256}</code>): replay with that TPP's own folder of cert.pem and
            key.pem in place of YOUR-CERT-DIR.
          </td>
        </tr>
      }
    >
      {(persona) => (
        <Show
          when={keyOffered(persona())}
          fallback={
            <tr>
              <th scope="row">Your certificate folder</th>
              <td colSpan={2}>
                {persona().name} is a persona you imported: replay with the certificate and key you imported, as a
                folder of cert.pem and key.pem, in place of YOUR-CERT-DIR.
              </td>
            </tr>
          }
        >
          <tr>
            <th scope="row">
              <code>{certDirNames(persona()).archive}</code>
            </th>
            <td>
              The certificate and key of {persona().name}
              {props.row.recorder ? "" : " (no request in the flow was signed: any certificate replays it)"}, unpacked
              to the folder <code>{certDirNames(persona()).folder}</code> (the --cert-dir).
              <KeyWarning persona={persona()} />
            </td>
            <td>
              <Button
                aria-label={`Save the certificate and key of ${persona().name}`}
                busy={props.busy === `key-${persona().id}`}
                onClick={() => props.onSave(persona())}
              >
                Save certificate and key
              </Button>
              <Saved where={props.saved[`key-${persona().id}`]} />
            </td>
          </tr>
        </Show>
      )}
    </Show>
  );
}
