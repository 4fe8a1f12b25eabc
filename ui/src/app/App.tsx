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
import { FirstStart } from "./FirstStart";
import { Header, SHORTCUTS_BUTTON } from "./Header";
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
    // The service answers a wrong token 401 and a missing one 403, both FORBIDDEN at Authorization.
    return (
      error instanceof ApiError &&
      (error.status === 401 || (error.status === 403 && error.messages.some((m) => m.path === "Authorization")))
    );
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
  // Focus goes back to the control that opened the list; opened by `?` from nowhere in particular (the page
  // itself), to the header's shortcuts button, which is the control that opens it.
  let helpOpener: HTMLElement | null = null;
  const openHelp = () => {
    const focused = document.activeElement;
    helpOpener =
      focused instanceof HTMLElement && focused !== document.body ? focused : document.getElementById(SHORTCUTS_BUTTON);
    setHelp(true);
  };
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
        openHelp();
      }
    };
    document.addEventListener("keydown", onKey);
    onCleanup(() => document.removeEventListener("keydown", onKey));
  });

  return (
    <div class="app">
      <ActivityBar active={wb.inFlight() > 0} />
      <Header onHelp={openHelp} />
      <Nav />
      <main class="app-main">
        <SessionProblem />
        <FirstStart />
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
        <ShortcutsDialog onClose={() => setHelp(false)} returnFocus={helpOpener} />
      </Show>
    </div>
  );
}
