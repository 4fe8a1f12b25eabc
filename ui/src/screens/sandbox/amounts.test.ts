// Amounts as the forms take them, from the minor units the transaction lists carry.
import { describe, expect, it } from "vitest";
import { decimalFromMinor } from "./amounts";
import { madeSummary } from "./GenerateAllForm";
import { sandboxNow, stateFileName } from "./SnapshotsPanel";

describe("decimalFromMinor", () => {
  it("writes minor units with the currency's fraction digits", () => {
    expect(decimalFromMinor(-29803, 2)).toBe("-298.03");
    expect(decimalFromMinor(5, 2)).toBe("0.05");
    expect(decimalFromMinor(-5, 2)).toBe("-0.05");
    expect(decimalFromMinor(0, 2)).toBe("0.00");
    expect(decimalFromMinor(1250, 0)).toBe("1250");
    expect(decimalFromMinor(-1234, 3)).toBe("-1.234");
  });
});

describe("madeSummary", () => {
  it("says what was made on how many accounts, and in all", () => {
    expect(madeSummary(250, 2, 0)).toBe("250 transactions on each of 2 accounts, 500 transactions in all");
    expect(madeSummary(20, 1, 0)).toBe("20 transactions on 1 account");
    expect(madeSummary(250, 2, 1)).toBe(
      "250 transactions on each of 2 accounts and 250 card transactions on 1 card account, 750 transactions in all",
    );
  });
});

describe("state file names", () => {
  it("name the sandbox clock's time", () => {
    expect(stateFileName(new Date("2026-06-01T12:05:09Z"))).toBe("sandbox-2026-06-01T1205Z.state.json");
    expect(sandboxNow({ mode: "frozen", now: "2026-06-01T12:00:00Z", offsetSeconds: 0 }).toISOString()).toBe("2026-06-01T12:00:00.000Z");
    expect(sandboxNow({ mode: "shifted", now: "x", offsetSeconds: 3600 }, Date.parse("2026-01-01T00:00:00Z")).toISOString()).toBe(
      "2026-01-01T01:00:00.000Z",
    );
  });
});
