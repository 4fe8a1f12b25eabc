// The keyboard shortcuts: Alt+1..7 switch screens, `?` shows the list. Ctrl+Enter (send in the composer) is
// handled by the composer itself. Listed here once, for the handler, the help dialog and the tooltips.
// Ctrl+1..7 are left to the browser, whose own tab keys they are; on macOS the keys are named as its
// keyboards print them (⌥ for Alt, ⌘ for Command).
import { SCREEN_IDS, SCREEN_TITLES, type ScreenId } from "./screens";

export interface Shortcut {
  keys: string;
  what: string;
}

/** Whether the keyboard is a Mac's: its keys are named ⌥ ⌘ ⌃ ↩ there. Takes the navigator for tests. */
export function isMac(nav: Pick<Navigator, "platform" | "userAgent"> | undefined = globalThis.navigator): boolean {
  if (!nav) return false;
  const data = (nav as Navigator & { userAgentData?: { platform?: string } }).userAgentData;
  return /mac|iphone|ipad/i.test(data?.platform || nav.platform || nav.userAgent || "");
}

const MAC_KEYS: Record<string, string> = { Alt: "⌥", Ctrl: "⌃", Meta: "⌘", Shift: "⇧", Enter: "↩" };

/**
 * A key combination written for the platform: `Alt+2` stays `Alt+2` on Linux and Windows and is `⌥2` on
 * macOS. `Mod` is the key a platform uses for commands: Ctrl, or ⌘ on macOS.
 */
export function keyLabel(keys: string, mac = isMac()): string {
  const parts = keys.split("+").map((k) => (k === "Mod" ? (mac ? "Meta" : "Ctrl") : k));
  return mac ? parts.map((k) => MAC_KEYS[k] ?? k).join("") : parts.join("+");
}

/** The same combination as aria-keyshortcuts names it (`Alt+2`, `Control+Enter`, `Meta+Enter`). */
export function ariaKeys(keys: string, mac = isMac()): string {
  return keys
    .split("+")
    .map((k) => (k === "Mod" ? (mac ? "Meta" : "Control") : k === "Ctrl" ? "Control" : k))
    .join("+");
}

/** The shortcut of the screen at `index` (0-based). */
export function screenKeys(index: number): string {
  return `Alt+${index + 1}`;
}

export function shortcuts(mac = isMac()): Shortcut[] {
  return [
    ...SCREEN_IDS.map((id, i) => ({ keys: keyLabel(screenKeys(i), mac), what: `Show ${SCREEN_TITLES[id]}` })),
    { keys: keyLabel("Mod+Enter", mac), what: "Send the request (Composer)" },
    { keys: "↑ ↓, Enter", what: "Move in the list and open an exchange (Inspector)" },
    { keys: "→ ←, Home, End, F, Escape", what: "Next / previous message, first, last, follow live, leave (presentation)" },
    { keys: "?", what: "Show these shortcuts" },
    { keys: "Escape", what: "Close a dialog" },
  ];
}

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
}

/**
 * The screen a key press asks for, if any: Alt (⌥) and a digit, nothing else held. The digit is read from
 * the key's place (`Digit4`), since ⌥4 types another character on a Mac.
 */
export function screenForKey(e: KeyboardEvent): ScreenId | null {
  if (!e.altKey || e.ctrlKey || e.shiftKey || e.metaKey) return null;
  const match = /^Digit([1-7])$/.exec(e.code) ?? /^([1-7])$/.exec(e.key);
  if (!match) return null;
  return SCREEN_IDS[Number(match[1]) - 1] ?? null;
}

/** Whether a key press asks for the shortcut list. */
export function isHelpKey(e: KeyboardEvent): boolean {
  return e.key === "?" && !e.ctrlKey && !e.altKey && !e.metaKey && !typingIn(e.target);
}
