// The top bar: the service's base URL (copyable), its version and mode, the live connection, the theme and
// the large type scale for a projector (not the flow view's presentation mode, which has its own button).
import { createSignal, Show } from "solid-js";
import { CopyButton } from "../components/CopyButton";
import { useWorkbench } from "./context";
import { applyPresentation, applyTheme, nextTheme, storedPresentation, storedTheme, type ThemeChoice } from "./theme";
import { valueOf } from "../lib/resource";
import { AboutDialog } from "./About";

/** The id of the button that opens the shortcut list: focus returns there when the list was opened by key. */
export const SHORTCUTS_BUTTON = "shortcuts-button";

const CONNECTION_TEXT = {
  connecting: "Connecting…",
  open: "Live",
  reconnecting: "Reconnecting…",
  closed: "Not live",
} as const;

export function Header(props: { onHelp: () => void }) {
  const wb = useWorkbench();
  const [theme, setTheme] = createSignal<ThemeChoice>(storedTheme());
  const [presenting, setPresenting] = createSignal(storedPresentation());
  const [about, setAbout] = createSignal(false);
  const baseUrl = () => valueOf(wb.session)?.baseUrl ?? wb.config.baseUrl;
  const cycleTheme = () => {
    const next = nextTheme(theme());
    setTheme(next);
    applyTheme(next);
  };
  return (
    <header class="app-header">
      <h1>xs2a-sandbox workbench</h1>
      <div class="base-url">
        <span id="base-url-label">Base URL</span>
        <code aria-labelledby="base-url-label">{baseUrl()}</code>
        <CopyButton text={baseUrl} label="Copy the base URL" />
      </div>
      <Show when={valueOf(wb.session)}>
        {(s) => (
          <span class="session-info">
            v{s().version} · {s().mode === "shared" ? "shared" : "loopback"} ·{" "}
            {s().dataDir ? <span title={s().dataDir ?? ""}>stored</span> : "ephemeral"}
          </span>
        )}
      </Show>
      <span class={`connection ${wb.connection()}`} role="status" aria-label="Live events">
        {CONNECTION_TEXT[wb.connection()]}
      </span>
      <button type="button" class="btn secondary" onClick={cycleTheme} aria-label={`Theme: ${theme()}. Change theme`}>
        Theme: {theme()}
      </button>
      <button
        type="button"
        class="btn secondary"
        aria-pressed={presenting()}
        onClick={() => {
          setPresenting(!presenting());
          applyPresentation(presenting());
        }}
      >
        Large type
      </button>
      <button id={SHORTCUTS_BUTTON} type="button" class="btn secondary" onClick={() => props.onHelp()} aria-label="Keyboard shortcuts">
        ?
      </button>
      {/* ℹ (U+2139): DejaVu Sans, the usual Linux UI font, has it; the circled ⓘ showed as a missing glyph. */}
      <button type="button" class="btn secondary" onClick={() => setAbout(true)} aria-label="About" title="About">
        ℹ
      </button>
      <Show when={about()}>
        <AboutDialog onClose={() => setAbout(false)} />
      </Show>
    </header>
  );
}
