// Vitest setup: jest-dom matchers, a clean DOM and clean mocks after each test, and no test passes that
// broke the service's contract (a request or an answer its OpenAPI document does not allow; ./contract.ts).
import "@testing-library/jest-dom/vitest";
import { cleanup } from "@solidjs/testing-library";
import { afterEach, expect, vi } from "vitest";
import { takeViolations } from "./contract";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
  sessionStorage.clear();
  localStorage.clear();
  expect(takeViolations(), "contract violations (the service's OpenAPI document)").toEqual([]);
});
