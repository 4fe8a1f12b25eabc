// What presentation mode leaves out so a room can read a message: long base64 (certificates, signatures,
// digests) folded to a short mark, and JSON indented. A path is not base64, however long: a link's
// `/v1/payments/norwegian-domestic-credit-transfers/3f2a…-…/status` stays as it is, its UUID and all.
import { prettyJson } from "../../lib/format";

const BASE64_RUN = /[A-Za-z0-9+/_-]{48,}={0,2}/g;

/** A path segment of the interface: a lowercase word (hyphens and digits allowed) or a UUID. */
const PATH_SEGMENT = /^(?:[a-z0-9]+(?:-[a-z0-9]+)*|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** Whether a run of base64's characters is a path (or a part of a URL): segments that are words or ids. */
function isPath(run: string): boolean {
  const segments = run.split("/").filter((s) => s !== "");
  return run.includes("/") && segments.length > 1 && segments.every((s) => PATH_SEGMENT.test(s) && !/[A-Z].*[a-z]|[a-z].*[A-Z]/.test(s));
}

/** Every base64-looking run of 48 characters or more as `«base64, N chars»`; paths and ids kept. */
export function foldBase64(text: string): string {
  return text.replace(BASE64_RUN, (run) =>
    /[0-9]/.test(run) && /[A-Za-z]/.test(run) && !isPath(run) ? `«base64, ${run.length} chars»` : run,
  );
}

/** A body for the projector: JSON indented, base64 folded, cut after `maxLines`. */
export function presentBody(body: string | null, maxLines = 40): string {
  if (!body) return "";
  const lines = foldBase64(prettyJson(body)).split("\n");
  return lines.length > maxLines ? `${lines.slice(0, maxLines).join("\n")}\n…` : lines.join("\n");
}
