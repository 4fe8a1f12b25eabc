// About: the version, where the service listens and in which mode, the data directory (opened in the file
// manager by the desktop app), and the licences of the components the desktop app ships, which its build
// generates from Cargo.lock and ui/package-lock.json (src-tauri/build/licences.rs).
import { createResource, createSignal, For, Show } from "solid-js";
import { Dialog } from "../components/Dialog";
import { Button } from "../components/Button";
import { isDesktop } from "../api/native";
import { valueOf } from "../lib/resource";
import { useWorkbench } from "./context";

interface Component {
  name: string;
  version: string;
  kind: "crate" | "npm";
  licence: string;
  repository: string | null;
  texts: number[];
}

interface DesktopAbout {
  version: string;
  licences: { generatedFrom: string[]; components: Component[]; texts: string[] };
}

function invoke<T>(command: string): Promise<T> {
  const tauri = window.__TAURI__;
  if (!tauri) return Promise.reject(new Error("only in the desktop app"));
  return tauri.core.invoke<T>(command);
}

/** "MIT OR Apache-2.0: 187 · MIT: 129 · … and 20 other licence expressions", the most used first. */
function licenceSummary(components: Component[]): string {
  const counts = new Map<string, number>();
  for (const c of components) counts.set(c.licence, (counts.get(c.licence) ?? 0) + 1);
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const shown = ranked.slice(0, 5).map(([licence, n]) => `${licence}: ${n}`);
  const rest = ranked.length - shown.length;
  return rest > 0 ? `${shown.join(" · ")} and ${rest} other licence expressions` : shown.join(" · ");
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function Licences(props: { about: DesktopAbout }) {
  const [filter, setFilter] = createSignal("");
  const components = () => props.about.licences.components;
  const shown = () => {
    const q = filter().trim().toLowerCase();
    return q ? components().filter((c) => `${c.name} ${c.licence}`.toLowerCase().includes(q)) : components();
  };
  const crates = () => components().filter((c) => c.kind === "crate").length;
  return (
    <section aria-labelledby="about-licences">
      <h3 id="about-licences">Licences of the bundled components</h3>
      <p>
        {plural(crates(), "Rust crate")} and {plural(components().length - crates(), "npm package")}, generated at
        build time from{" "}
        {props.about.licences.generatedFrom.join(" and ")}. {licenceSummary(components())}.
      </p>
      <label>
        Find a component <input type="search" value={filter()} onInput={(e) => setFilter(e.currentTarget.value)} />
      </label>
      <ul class="about-licences" style={{ "max-height": "40vh", overflow: "auto", "padding-left": "1rem" }}>
        <For each={shown()}>
          {(c) => (
            <li>
              <details>
                <summary>
                  {c.name} {c.version} — {c.licence}
                </summary>
                <Show when={c.repository}>
                  <p>{c.repository}</p>
                </Show>
                <For each={c.texts} fallback={<p>No licence file in the package; its licence is {c.licence}.</p>}>
                  {(index) => <pre style={{ "white-space": "pre-wrap", "font-size": "0.8rem" }}>{props.about.licences.texts[index]}</pre>}
                </For>
              </details>
            </li>
          )}
        </For>
      </ul>
    </section>
  );
}

export function AboutDialog(props: { onClose: () => void }) {
  const wb = useWorkbench();
  const session = () => valueOf(wb.session);
  const [about] = createResource(() => (isDesktop() ? invoke<DesktopAbout>("about") : Promise.resolve(null)));
  const [opened, setOpened] = createSignal<string | null>(null);
  const openFolder = () =>
    invoke<string>("open_data_folder").then(
      (dir) => setOpened(`Opened ${dir}`),
      (error: unknown) => setOpened(`Could not open the folder: ${String(error)}`),
    );
  return (
    <Dialog title="About xs2a-sandbox workbench" onClose={props.onClose}>
      <dl class="about">
        <dt>Version</dt>
        <dd>{about()?.version ?? session()?.version ?? "…"}</dd>
        <dt>Service</dt>
        <dd>
          <code>{session()?.baseUrl ?? wb.config.baseUrl}</code> ·{" "}
          {session()?.mode === "shared" ? "shared (other machines may call it)" : "loopback (this machine only)"}
        </dd>
        <dt>Data directory</dt>
        <dd>
          <Show when={session()?.dataDir} fallback="ephemeral: nothing is kept after the service stops">
            {(dir) => (
              <>
                <code>{dir()}</code>{" "}
                <Show when={isDesktop()}>
                  <Button variant="secondary" onClick={() => void openFolder()}>
                    Open folder
                  </Button>
                </Show>
              </>
            )}
          </Show>
          <Show when={opened()}>
            <span role="status"> {opened()}</span>
          </Show>
        </dd>
      </dl>
      <Show
        when={about()}
        fallback={
          <p>{isDesktop() ? "Reading the licences…" : "The licences of the bundled components are listed in the desktop app's About."}</p>
        }
      >
        {(a) => <Licences about={a()} />}
      </Show>
      <div class="actions">
        <Button variant="primary" onClick={() => props.onClose()}>
          Close
        </Button>
      </div>
    </Dialog>
  );
}
