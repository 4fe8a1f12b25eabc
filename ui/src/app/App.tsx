// The shell: header, the screen tabs, one tab panel per screen (each mounted on its first visit and kept,
// so a half-written request survives a look at another screen), notices, the shortcuts.
import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import { Dynamic } from "solid-js/web";
import type { Component } from "solid-js";
import { ActivityBar } from "../components/ProgressBar";
import { ErrorMessages } from "../components/ErrorMessages";
import { Notices } from "../components/Notices";
import { ApiError } from "../api/errors";
import { useWorkbench } from "./context";
import { Header } from "./Header";
import { Nav, panelId, tabId } from "./Nav";
import { SCREEN_IDS, SCREEN_TITLES, type ScreenId } from "./screens";
import { isHelpKey, screenForKey } from "./shortcuts";
import { ShortcutsDialog } from "./ShortcutsDialog";
import { SandboxScreen } from "../screens/sandbox/SandboxScreen";
import { ComposerScreen } from "../screens/composer/ComposerScreen";
import { ScaScreen } from "../screens/sca/ScaScreen";
import { BatchScreen } from "../screens/batch/BatchScreen";
import { InspectorScreen } from "../screens/inspector/InspectorScreen";
import { FlowScreen } from "../screens/flow/FlowScreen";
import { ConformanceScreen } from "../screens/conformance/ConformanceScreen";

const SCREENS: Record<ScreenId, Component> = {
  sandbox: SandboxScreen,
  composer: ComposerScreen,
  sca: ScaScreen,
  batch: BatchScreen,
  inspector: InspectorScreen,
  flow: FlowScreen,
  conformance: ConformanceScreen,
};

function SessionProblem() {
  const wb = useWorkbench();
  const sessionError = (): unknown => wb.session.error;
  const unauthorised = () => {
    const error = sessionError();
    return error instanceof ApiError && error.status === 401;
  };
  return (
    <Show when={sessionError()}>
      <div class="session-problem">
        <Show
          when={unauthorised()}
          fallback={<ErrorMessages error={sessionError()} title="The workbench cannot reach the service." />}
        >
          <div role="alert">
            <p>
              <strong>Not authorised.</strong> Open the address <code>xs2a-sandbox serve</code> printed at start (it
              ends in <code>?token=…</code>), or restart the desktop app.
            </p>
          </div>
        </Show>
        <button type="button" class="btn secondary" onClick={() => wb.refetchSession()}>
          Try again
        </button>
      </div>
    </Show>
  );
}

export function App() {
  const wb = useWorkbench();
  const [help, setHelp] = createSignal(false);
  const visited = new Set<ScreenId>();
  const mounted = (id: ScreenId) => {
    if (wb.screen() === id) visited.add(id);
    return visited.has(id);
  };

  onMount(() => {
    const onKey = (e: KeyboardEvent) => {
      const screen = screenForKey(e);
      if (screen) {
        e.preventDefault();
        wb.go(screen);
        return;
      }
      if (isHelpKey(e)) {
        e.preventDefault();
        setHelp(true);
      }
    };
    document.addEventListener("keydown", onKey);
    onCleanup(() => document.removeEventListener("keydown", onKey));
  });

  return (
    <div class="app">
      <ActivityBar active={wb.inFlight() > 0} />
      <Header onHelp={() => setHelp(true)} />
      <Nav />
      <main class="app-main">
        <SessionProblem />
        <For each={SCREEN_IDS}>
          {(id) => (
            <section
              role="tabpanel"
              id={panelId(id)}
              aria-labelledby={tabId(id)}
              hidden={wb.screen() !== id}
              class="screen"
            >
              <Show when={mounted(id)}>
                <h2 class="screen-title">{SCREEN_TITLES[id]}</h2>
                <Dynamic component={SCREENS[id]} />
              </Show>
            </section>
          )}
        </For>
      </main>
      <Notices />
      <Show when={help()}>
        <ShortcutsDialog onClose={() => setHelp(false)} />
      </Show>
    </div>
  );
}
