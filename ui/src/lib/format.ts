// Small formatting and date helpers for display and for form defaults; no business rules.

/** `2026-06-01T12:00:00Z` → `2026-06-01 12:00:00 UTC` (the sandbox clock is UTC). */
export function formatInstant(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** The UTC date part of an instant, `YYYY-MM-DD`. */
export function dateOf(iso: string | Date): string {
  const d = typeof iso === "string" ? new Date(iso) : iso;
  return Number.isNaN(d.getTime()) ? "" : d.toISOString().slice(0, 10);
}

/** A `YYYY-MM-DD` date moved by whole days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  d.setUTCDate(d.getUTCDate() + days);
  return dateOf(d);
}

/** An RFC 3339 instant from a `datetime-local` value read as UTC. */
export function utcFromLocalInput(value: string): string {
  if (!value) return "";
  const withSeconds = value.length === 16 ? `${value}:00` : value;
  return `${withSeconds}Z`;
}

/** A `datetime-local` value (UTC) from an instant. */
export function localInputFromUtc(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString().slice(0, 19);
}

/** JSON pretty-printed when the text is JSON, else the text as it came. */
export function prettyJson(text: string): string {
  if (!text.trim()) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** `1 card`, `2 cards`: a count with its noun, plural when it is not 1 (`plural` for irregular nouns). */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? noun : plural}`;
}

/** A duration as people read it: `<1 ms` under a millisecond (never `0 ms`), whole ms below 10 s, else seconds. */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 1) return "<1 ms";
  if (ms < 10_000) return `${Math.round(ms).toLocaleString("en-US")} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}
