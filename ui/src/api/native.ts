// The desktop shell's native commands (open_sca_window, save_file, open_file, set_fullscreen) when the page
// runs inside Tauri, and the browser's fallbacks otherwise: window.open, a download link, an <input
// type=file>, the Fullscreen API.

/** The `open_file` command's answer (src-tauri), or the browser's file input read the same way. */
export interface OpenFileResult {
  path: string;
  contents: string;
}

interface TauriGlobal {
  core: { invoke<T>(command: string, args?: Record<string, unknown>): Promise<T> };
}

declare global {
  interface Window {
    __TAURI__?: TauriGlobal;
  }
}

function tauri(): TauriGlobal | null {
  return typeof window !== "undefined" && window.__TAURI__?.core ? window.__TAURI__ : null;
}

export function isDesktop(): boolean {
  return tauri() !== null;
}

/**
 * The bank's page as the workbench's PSU window opens it: an SCA page (`/sca/{id}`) gets `workbench=1`, so
 * that the end of the SCA shows where the bank sends the PSU, with the psu-id, and a link onwards, instead
 * of leaving the window on the browser's error page when the TPP's app is not reachable from it
 * (docs/reference/ais-sca.md). Other addresses are opened as they are.
 */
export function psuWindowUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (/^\/sca\/[^/]+$/.test(parsed.pathname) && !parsed.searchParams.has("workbench")) {
      parsed.searchParams.set("workbench", "1");
      return parsed.toString();
    }
  } catch {
    // Not an absolute URL: opened as given, and the window says what is wrong with it.
  }
  return url;
}

/** Opens the bank's SCA pages: the desktop's separate SCA window, or a browser popup. */
export async function openScaWindow(address: string): Promise<void> {
  const url = psuWindowUrl(address);
  const t = tauri();
  if (t) {
    await t.core.invoke("open_sca_window", { url });
    return;
  }
  const popup = window.open(url, "xs2a-sca", "popup,width=520,height=760");
  if (!popup) throw new Error("The browser blocked the SCA window; allow pop-ups for this page.");
}

/**
 * Puts the app in full screen or takes it out: the desktop window's own full screen (a command of the main
 * window), or the browser's Fullscreen API on the whole page. Answers whether it is in full screen now.
 */
export async function setFullScreen(on: boolean): Promise<boolean> {
  const t = tauri();
  if (t) return t.core.invoke<boolean>("set_fullscreen", { fullscreen: on });
  if (on && !document.fullscreenElement) await document.documentElement.requestFullscreen();
  if (!on && document.fullscreenElement) await document.exitFullscreen();
  return on;
}

/** Whether the app is in full screen now (the desktop window's, or the browser's). */
export async function isFullScreen(): Promise<boolean> {
  const t = tauri();
  if (t) return t.core.invoke<boolean>("is_fullscreen");
  return Boolean(document.fullscreenElement);
}

/** Saves text to a file the user picks; the chosen path, the download's name, or null when cancelled. */
export async function saveFile(defaultName: string, contents: string, type = "text/plain"): Promise<string | null> {
  const t = tauri();
  if (t) return t.core.invoke<string | null>("save_file", { defaultName, contents });
  const href = URL.createObjectURL(new Blob([contents], { type }));
  const link = document.createElement("a");
  link.href = href;
  link.download = defaultName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return defaultName;
}

/** Lets the user pick a text file; its name and contents, or null when cancelled. */
export async function openFile(title: string, extensions: string[]): Promise<OpenFileResult | null> {
  const t = tauri();
  if (t) return t.core.invoke<OpenFileResult | null>("open_file", { title, extensions });
  return new Promise((resolve) => {
    const input = document.createElement("input");
    input.type = "file";
    input.accept = extensions.map((e) => `.${e}`).join(",");
    input.style.display = "none";
    input.addEventListener("change", () => {
      const file = input.files?.[0];
      input.remove();
      if (!file) return resolve(null);
      file.text().then(
        (contents) => resolve({ path: file.name, contents }),
        () => resolve(null),
      );
    });
    input.addEventListener("cancel", () => {
      input.remove();
      resolve(null);
    });
    document.body.append(input);
    input.click();
  });
}
