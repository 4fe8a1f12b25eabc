// The client's configuration: desktop hand-over first, else same origin and ?token= kept in sessionStorage.
import { describe, expect, it, vi } from "vitest";
import { resolveConfig, TOKEN_KEY } from "./config";

function fakeWindow(href: string, handOver?: Window["__XS2A_WORKBENCH__"]) {
  const storage = new Map<string, string>();
  const replaceState = vi.fn();
  const win = {
    __XS2A_WORKBENCH__: handOver,
    location: { href },
    sessionStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
    },
    history: { state: null, replaceState },
  } as unknown as Window;
  return { win, storage, replaceState };
}

describe("resolveConfig", () => {
  it("uses the desktop shell's hand-over when present", () => {
    const { win, replaceState } = fakeWindow("tauri://localhost/", {
      baseUrl: "http://127.0.0.1:53117/",
      token: "desk",
      desktop: true,
    });
    expect(resolveConfig(win)).toEqual({ baseUrl: "http://127.0.0.1:53117", token: "desk", desktop: true });
    expect(replaceState).not.toHaveBeenCalled();
  });

  it("takes ?token= from the address, keeps it in sessionStorage and removes it from the URL", () => {
    const { win, storage, replaceState } = fakeWindow("http://127.0.0.1:8080/workbench/?token=abc&x=1#/batch");
    const config = resolveConfig(win);
    expect(config).toEqual({ baseUrl: "http://127.0.0.1:8080", token: "abc", desktop: false });
    expect(storage.get(TOKEN_KEY)).toBe("abc");
    expect(replaceState).toHaveBeenCalledWith(null, "", "/workbench/?x=1#/batch");
  });

  it("finds the token in sessionStorage after a reload without ?token=", () => {
    const { win, storage, replaceState } = fakeWindow("http://127.0.0.1:8080/workbench/");
    storage.set(TOKEN_KEY, "kept");
    expect(resolveConfig(win).token).toBe("kept");
    expect(replaceState).not.toHaveBeenCalled();
  });

  it("has no token when neither gives one", () => {
    const { win } = fakeWindow("http://localhost:5173/");
    expect(resolveConfig(win)).toEqual({ baseUrl: "http://localhost:5173", token: null, desktop: false });
  });
});
