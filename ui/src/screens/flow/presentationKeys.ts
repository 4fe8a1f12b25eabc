// Which key presses are presentation's own (→ next, ← back, Space, Home, End, F, Escape) and which belong to
// where they were pressed: a field being typed in, a button's or a list's own keys, the bank's page the PSU
// is using beside the diagram (its events reach the document from inside a shadow root, retargeted to the
// page's host, so the element really pressed in is the first of the event's path), or a dialog opened over
// presentation (its Escape closes the dialog, not presentation). Escape leaves from anywhere else.
const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);
const ACTIVATED_BY_KEYS = new Set(["BUTTON", "A", "SUMMARY"]);

export function keyBelongsElsewhere(e: KeyboardEvent, presentation: HTMLElement): boolean {
  const origin = e.composedPath()[0];
  if (!(origin instanceof Element)) return false;
  const dialog = origin.closest('[role="dialog"]');
  if (dialog !== null && dialog !== presentation) return true;
  if (e.key === "Escape") return false;
  if (TYPING.has(origin.tagName)) return true;
  if (ACTIVATED_BY_KEYS.has(origin.tagName) && (e.key === " " || e.key === "Enter")) return true;
  return origin.getRootNode() instanceof ShadowRoot;
}
