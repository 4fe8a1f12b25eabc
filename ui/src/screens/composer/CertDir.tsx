// A persona's certificate with its private key, saved as the `--cert-dir` that `xs2a-sandbox replay` and
// `sign` read: a tar archive (`<id>.cert-dir.tar`) that `tar -xf` unpacks to the folder `<id>/` with cert.pem,
// key.pem and a README. Offered for the bundled personas (whose keys are public: they ship with the sandbox)
// and issued ones (test keys the sandbox made), always with that warning in view before the key is saved; an
// imported persona's key is the user's own file, which the service does not hand back (409).
import { createSignal, Show } from "solid-js";
import type { Persona } from "../../api/types";
import { saveFile } from "../../api/native";
import { useWorkbench } from "../../app/context";
import { createActions } from "../../lib/action";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { ErrorMessages } from "../../components/ErrorMessages";

/** The archive's file name and the folder it unpacks to. */
export function certDirNames(persona: Pick<Persona, "id">): { archive: string; folder: string } {
  return { archive: `${persona.id}.cert-dir.tar`, folder: persona.id };
}

/** Whether the service hands out this persona's key. */
export function keyOffered(persona: Pick<Persona, "source">): boolean {
  return persona.source !== "imported";
}

/** What a person must know before saving the key, by where it came from. */
export function KeyWarning(props: { persona: Pick<Persona, "source" | "name"> }) {
  return (
    <p class="key-warning" role="note">
      <Show
        when={props.persona.source === "bundled"}
        fallback={
          <>
            <strong>A test key.</strong> The sandbox made it when it issued {props.persona.name}; anyone with the file
            can sign as this TPP in any sandbox that trusts the test CA (whose own key is public). Use it against a
            sandbox only.
          </>
        }
      >
        <strong>This private key is public.</strong> It ships with xs2a-sandbox, so anyone can sign as{" "}
        {props.persona.name}. Use it against a sandbox only, never anywhere real.
      </Show>
    </p>
  );
}

/** Saves the persona's `--cert-dir` archive; where it went (the path, or the download's name), or null. */
export async function saveCertDir(
  client: ReturnType<typeof useWorkbench>["client"],
  persona: Pick<Persona, "id">,
): Promise<string | null> {
  const archive = await client.personas.certDir(persona.id);
  return saveFile(certDirNames(persona).archive, archive, "application/x-tar");
}

/** A button that saves the persona's certificate and key, after a dialog that shows the warning. */
export function CertDirButton(props: { persona: Persona }) {
  const wb = useWorkbench();
  const [open, setOpen] = createSignal(false);
  const { busy, error, run } = createActions();
  const save = () =>
    run("save", async () => {
      const where = await saveCertDir(wb.client, props.persona);
      if (!where) return;
      setOpen(false);
      wb.notify(`Certificate and key of ${props.persona.name} saved: ${where}`, "success");
    });
  return (
    <>
      <Button onClick={() => setOpen(true)}>Download certificate and key…</Button>
      <Show when={open()}>
        <Dialog
          title={`Download the certificate and key of ${props.persona.name}?`}
          description={`${certDirNames(props.persona).archive}: unpacked with tar -xf, the folder ${certDirNames(props.persona).folder} is a --cert-dir for xs2a-sandbox replay and sign.`}
          onClose={() => setOpen(false)}
        >
          <KeyWarning persona={props.persona} />
          <ErrorMessages error={error()} />
          <div class="actions">
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="primary" busy={busy() === "save"} onClick={() => void save()}>
              Save certificate and key
            </Button>
          </div>
        </Dialog>
      </Show>
    </>
  );
}
