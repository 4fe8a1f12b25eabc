// What presentation mode leaves out so a room can read a message: long base64 (certificates, signatures,
// digests) folded to a short mark, and JSON indented.
import { prettyJson } from "../../lib/format";

const BASE64_RUN = /[A-Za-z0-9+/_-]{48,}={0,2}/g;

/** Every base64-looking run of 48 characters or more as `«base64, N chars»`. */
export function foldBase64(text: string): string {
  return text.replace(BASE64_RUN, (run) => (/[0-9]/.test(run) && /[A-Za-z]/.test(run) ? `«base64, ${run.length} chars»` : run));
}

/** A body for the projector: JSON indented, base64 folded, cut after `maxLines`. */
export function presentBody(body: string | null, maxLines = 40): string {
  if (!body) return "";
  const lines = foldBase64(prettyJson(body)).split("\n");
  return lines.length > maxLines ? `${lines.slice(0, maxLines).join("\n")}\n…` : lines.join("\n");
}
