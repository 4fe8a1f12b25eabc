// The keyboard shortcuts: Alt+1..7 or Ctrl+1..7 switch screens, `?` shows the list. Ctrl+Enter (send in the
// composer) is handled by the composer itself. Listed here once, for the handler and the help dialog.
import { SCREEN_IDS, SCREEN_TITLES, type ScreenId } from "./screens";

export interface Shortcut {
  keys: string;
  what: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  ...SCREEN_IDS.map((id, i) => ({ keys: `Alt+${i + 1} or Ctrl+${i + 1}`, what: `Show ${SCREEN_TITLES[id]}` })),
  { keys: "Ctrl+Enter", what: "Send the request (Composer)" },
  { keys: "↑ ↓, Enter", what: "Move in the list and open an exchange (Inspector)" },
  { keys: "→ ←, Home, End, F, Escape", what: "Next / previous message, first, last, follow live, leave (presentation)" },
  { keys: "?", what: "Show these shortcuts" },
  { keys: "Escape", what: "Close a dialog" },
];

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}

/** The screen a key press asks for, if any. */
export function screenForKey(e: KeyboardEvent): ScreenId | null {
  if (!(e.altKey || e.ctrlKey) || e.shiftKey || e.metaKey) return null;
  const match = /^Digit([1-7])$/.exec(e.code) ?? /^([1-7])$/.exec(e.key);
  if (!match) return null;
  return SCREEN_IDS[Number(match[1]) - 1] ?? null;
}

/** Whether a key press asks for the shortcut list. */
export function isHelpKey(e: KeyboardEvent): boolean {
  return e.key === "?" && !e.ctrlKey && !e.altKey && !e.metaKey && !typingIn(e.target);
}
