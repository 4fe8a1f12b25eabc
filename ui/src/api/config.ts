// Where the service is and which operator token to send: from the desktop shell's hand-over when present,
// else the page's own origin and the `?token=` it was opened with (then kept in sessionStorage and removed
// from the address bar, as docs/workbench-api.md asks). A tab opened without it (a second tab, a bookmark)
// has no token: its requests go without one and the service takes the session cookie the tokenised page
// set for this origin (HttpOnly, so never seen here; docs/reference/access.md).
/** What the desktop shell sets before any script runs (docs/workbench-api.md, "Desktop shell hand-over"): the
 * Tauri shell's contract, not part of the HTTP API's OpenAPI document. */
export interface WorkbenchHandOver {
  baseUrl: string;
  token: string;
  desktop: boolean;
}

declare global {
  interface Window {
    __XS2A_WORKBENCH__?: WorkbenchHandOver;
  }
}

export const TOKEN_KEY = "xs2a-workbench-token";

export interface ClientConfig {
  /** The service's base URL without a trailing slash, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  token: string | null;
  desktop: boolean;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** Reads the configuration once at start. Takes the window so tests can hand in their own. */
export function resolveConfig(win: Window = window): ClientConfig {
  const handOver = win.__XS2A_WORKBENCH__;
  if (handOver && typeof handOver.baseUrl === "string") {
    return { baseUrl: trimSlash(handOver.baseUrl), token: handOver.token || null, desktop: handOver.desktop === true };
  }
  const url = new URL(win.location.href);
  const fromAddress = url.searchParams.get("token");
  let token: string | null = null;
  try {
    if (fromAddress) {
      win.sessionStorage.setItem(TOKEN_KEY, fromAddress);
    }
    token = win.sessionStorage.getItem(TOKEN_KEY);
  } catch {
    // Storage can be refused (privacy settings); the token from the address still works for this page.
    token = fromAddress;
  }
  if (fromAddress) {
    url.searchParams.delete("token");
    win.history.replaceState(win.history.state, "", url.pathname + url.search + url.hash);
  }
  return { baseUrl: trimSlash(url.origin), token, desktop: false };
}
