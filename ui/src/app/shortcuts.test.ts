// The shortcuts' keys as each platform names them: Alt+2 and Ctrl+Enter on Linux and Windows, ⌥2 and ⌘↩
// on macOS; Ctrl+digit is never the workbench's.
import { describe, expect, it } from "vitest";
import { ariaKeys, isMac, keyLabel, screenForKey, shortcuts } from "./shortcuts";

const LINUX = { platform: "Linux x86_64", userAgent: "Mozilla/5.0 (X11; Linux x86_64)" };
const MAC = { platform: "MacIntel", userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4)" };

describe("shortcuts", () => {
  it("tells a Mac from the rest", () => {
    expect(isMac(MAC)).toBe(true);
    expect(isMac(LINUX)).toBe(false);
    expect(isMac({ platform: "Win32", userAgent: "Mozilla/5.0 (Windows NT 10.0)" })).toBe(false);
  });

  it("names the keys per platform", () => {
    expect(keyLabel("Alt+2", false)).toBe("Alt+2");
    expect(keyLabel("Alt+2", true)).toBe("⌥2");
    expect(keyLabel("Mod+Enter", false)).toBe("Ctrl+Enter");
    expect(keyLabel("Mod+Enter", true)).toBe("⌘↩");
    expect(ariaKeys("Mod+Enter", false)).toBe("Control+Enter");
    expect(ariaKeys("Mod+Enter", true)).toBe("Meta+Enter");
    expect(shortcuts(true).map((s) => s.keys).slice(0, 8)).toEqual(["⌥1", "⌥2", "⌥3", "⌥4", "⌥5", "⌥6", "⌥7", "⌘↩"]);
    expect(shortcuts(false)[0]?.keys).toBe("Alt+1");
    expect(shortcuts(false).some((s) => /Ctrl\+\d/.test(s.keys))).toBe(false);
  });

  it("takes Alt (⌥) and a digit, by the key's place, and nothing with Ctrl, ⌘ or Shift", () => {
    const key = (init: KeyboardEventInit) => screenForKey(new KeyboardEvent("keydown", init));
    expect(key({ key: "3", code: "Digit3", altKey: true })).toBe("sca");
    // ⌥3 types "£" on a Mac keyboard: the key's place still says 3.
    expect(key({ key: "£", code: "Digit3", altKey: true })).toBe("sca");
    expect(key({ key: "3", code: "Digit3", ctrlKey: true })).toBeNull();
    expect(key({ key: "3", code: "Digit3", altKey: true, ctrlKey: true })).toBeNull();
    expect(key({ key: "3", code: "Digit3", metaKey: true })).toBeNull();
    expect(key({ key: "8", code: "Digit8", altKey: true })).toBeNull();
  });
});
