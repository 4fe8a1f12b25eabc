// Renders a screen (or the whole app) inside a WorkbenchProvider with a mocked fetch and a fake event
// stream, so component tests exercise the real client and context without a network.
import { render } from "@solidjs/testing-library";
import type { JSX } from "solid-js";
import { WorkbenchProvider } from "../app/context";
import type { ScreenId } from "../app/screens";
import { FakeEventSource } from "./fakeEventSource";
import { json, mockFetch } from "./fetchMock";
import type { Route } from "./fetchMock";
import type { Session } from "../api/types";

export const SESSION: Session = {
  version: "0.2.0",
  baseUrl: "http://127.0.0.1:8080",
  mode: "loopback",
  dataDir: null,
  callbackUrl: "http://127.0.0.1:8080/workbench/callback",
  clock: { now: "2026-06-01T12:00:00Z", mode: "frozen", offsetSeconds: 0 },
  dataFormat: { version: 2, migratedNow: false },
  profile: "sandbox",
};

export interface HarnessOptions {
  routes?: Record<string, Route>;
  screen?: ScreenId;
  /** Open the (fake) event stream. */
  live?: boolean;
}

export function renderWorkbench(ui: () => JSX.Element, options: HarnessOptions = {}) {
  FakeEventSource.reset();
  const { fetch, calls } = mockFetch({ "GET /session": json(SESSION), ...options.routes });
  const result = render(() => (
    <WorkbenchProvider
      config={{ baseUrl: "http://127.0.0.1:8080", token: "t0k", desktop: false }}
      fetch={fetch}
      eventSource={options.live ? (url) => new FakeEventSource(url) : null}
      initialScreen={options.screen ?? "sandbox"}
    >
      {ui()}
    </WorkbenchProvider>
  ));
  return { ...result, calls, stream: () => FakeEventSource.latest() };
}
