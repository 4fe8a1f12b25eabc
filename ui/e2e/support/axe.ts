// The accessibility scan: axe-core (via @axe-core/playwright) with the WCAG 2 A and AA rules, over what is
// on the page now. A violation fails with its rule, impact and the elements it found, so the failure says
// what to mend.
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations.map(
    (v) =>
      `${v.id} (${v.impact ?? "?"}): ${v.help} — ${v.nodes
        .slice(0, 4)
        .map((n) => `${n.target.join(" ")}${n.failureSummary ? ` [${n.failureSummary.replace(/\s+/g, " ").slice(0, 160)}]` : ""}`)
        .join("; ")}`,
  );
}
