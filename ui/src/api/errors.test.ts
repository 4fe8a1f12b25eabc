// Parsing the service's refusals into messages and sorting them by the field they name.
import { describe, expect, it } from "vitest";
import { ApiError, errorFromAnswer, fieldErrors, normalisePath } from "./errors";

describe("errorFromAnswer", () => {
  it("keeps the tppMessages of a refusal", () => {
    const body = JSON.stringify({
      tppMessages: [{ category: "ERROR", code: "FORMAT_ERROR", path: "balances[0].balanceAmount.amount", text: "bad amount" }],
    });
    const error = errorFromAnswer(400, "Bad Request", body);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.messages).toEqual([
      { category: "ERROR", code: "FORMAT_ERROR", path: "balances[0].balanceAmount.amount", text: "bad amount" },
    ]);
  });

  it("says what came back when the body is not the bank's error shape", () => {
    const error = errorFromAnswer(502, "Bad Gateway", "<html>proxy</html>");
    expect(error.messages).toHaveLength(1);
    expect(error.messages[0]?.text).toContain("502");
    expect(error.messages[0]?.text).toContain("<html>proxy</html>");
  });
});

describe("fieldErrors", () => {
  it("sorts errors by path and leaves warnings and path-less messages apart", () => {
    const sorted = fieldErrors([
      { category: "ERROR", code: "FORMAT_ERROR", path: "bban", text: "check digit" },
      { category: "ERROR", code: "FORMAT_ERROR", path: "balances[1].balanceType", text: "no such type" },
      { category: "ERROR", code: "CONFLICT", path: null, text: "exists" },
      { category: "WARNING", code: "WARNING", path: "name", text: "long" },
    ]);
    expect([...sorted.byPath.keys()]).toEqual(["bban", "balances[1].balanceType"]);
    expect(sorted.general.map((m) => m.code)).toEqual(["CONFLICT"]);
  });

  it("drops a prefix such as [0] for a one-item array body", () => {
    const sorted = fieldErrors([{ category: "ERROR", code: "FORMAT_ERROR", path: "[0].amount", text: "x" }], "[0]");
    expect(sorted.byPath.has("amount")).toBe(true);
  });
});

describe("normalisePath", () => {
  it("reads $-rooted and JSON-pointer paths the same", () => {
    expect(normalisePath("$.balances[0].amount")).toBe("balances[0].amount");
    expect(normalisePath("/balances/0/amount")).toBe("balances[0].amount");
    expect(normalisePath("creditLine.amount")).toBe("creditLine.amount");
  });
});
