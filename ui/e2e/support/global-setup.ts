// Playwright's global setup: the end-to-end tests need the running service scripts/test-browser.sh starts.
// Without its URL (or the binary) every test used to skip itself, and `npx playwright test` passed green
// having run nothing: a missing setting is a failure, said once, before any test starts.
const NEEDED: Record<string, string> = {
  XS2A_WORKBENCH_URL: "the tokenised /workbench/ URL of a running service",
  XS2A_SANDBOX_BIN: "the built xs2a-sandbox binary",
};

export default function requireService(): void {
  const missing = Object.keys(NEEDED).filter((name) => !process.env[name]);
  if (missing.length === 0) return;
  throw new Error(
    `${missing.join(" and ")} not set. Run the end-to-end tests with scripts/test-browser.sh from the repository's root ` +
      `(e.g. \`bash scripts/test-browser.sh e2e/traffic.spec.ts\`): it starts the built service and sets ` +
      `${Object.entries(NEEDED).map(([n, what]) => `${n} (${what})`).join(" and ")}.`,
  );
}
