// A recorded body, formatted when it is JSON, with a search box that marks every match and counts them; or
// as received — every byte as it came, line ends and tabs shown as \n, \r and \t, with the byte count and
// how many line ends there were — which is what a Digest is computed over (a body that lost its line ends on
// the way, as `curl -d @file` does, shows it at once). Long bodies are cut in the view (kept whole in the
// log); binary ones say so.
import { createMemo, createSignal, For, Show } from "solid-js";
import type { RecordedMessage } from "../../api/traffic";
import { count, prettyJson } from "../../lib/format";

const VIEW_LIMIT = 200_000;

/** The text cut into plain and matching parts (case-insensitive). */
export function markMatches(text: string, query: string): { text: string; match: boolean }[] {
  const q = query.toLowerCase();
  if (!q) return [{ text, match: false }];
  const lower = text.toLowerCase();
  const parts: { text: string; match: boolean }[] = [];
  let at = 0;
  for (let i = lower.indexOf(q); i >= 0; i = lower.indexOf(q, i + q.length)) {
    if (i > at) parts.push({ text: text.slice(at, i), match: false });
    parts.push({ text: text.slice(i, i + q.length), match: true });
    at = i + q.length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}

const ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * A body as received, in pieces: text as it is, and each line end or tab as its escape (`\n`), marked.
 * A line end is also a break in the view, so a body with its line ends reads in lines and one without
 * them reads as one.
 */
export function escapedParts(text: string): { text: string; escape: boolean }[] {
  const parts: { text: string; escape: boolean }[] = [];
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const escape = ESCAPES[text[i] as string];
    if (escape === undefined) continue;
    if (i > at) parts.push({ text: text.slice(at, i), escape: false });
    parts.push({ text: escape, escape: true });
    if (text[i] === "\n") parts.push({ text: "\n", escape: false });
    at = i + 1;
  }
  if (at < text.length) parts.push({ text: text.slice(at), escape: false });
  return parts;
}

/** `389 bytes, no line ends` / `395 bytes, 6 line ends (LF)` / `… (CRLF)`. */
export function receivedSummary(message: RecordedMessage): string {
  const text = message.body ?? "";
  const lf = (text.match(/\n/g) ?? []).length;
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const kind = lf === 0 ? "" : crlf === lf ? " (CRLF)" : crlf === 0 ? " (LF)" : ` (${crlf} of them CRLF)`;
  const ends = lf === 0 ? "no line ends" : `${count(lf, "line end")}${kind}`;
  return `${count(message.bodyBytes, "byte")} as received, ${ends}`;
}

export function BodyView(props: { message: RecordedMessage; label: string; asReceived?: boolean }) {
  const [query, setQuery] = createSignal("");
  // The view starts as the caller asks (a Digest refusal: as received) and is then the reader's choice. A
  // binary body is shown as its base64 either way: "as received" is for text.
  // eslint-disable-next-line solid/reactivity -- read once, for the first view
  const [raw, setRaw] = createSignal(props.asReceived === true && !props.message.bodyBase64);
  const cut = createMemo(() => {
    const body = props.message.body ?? "";
    return body.length > VIEW_LIMIT ? body.slice(0, VIEW_LIMIT) : body;
  });
  const text = createMemo(() => (props.message.bodyBase64 ? cut() : prettyJson(cut())));
  const parts = createMemo(() => markMatches(text(), query()));
  const matches = () => parts().filter((p) => p.match).length;
  return (
    <Show when={props.message.body} fallback={<p class="hint">No body.</p>}>
      <div class="body-view">
        <div class="toolbar">
          <Show when={!props.message.bodyBase64}>
            <div role="group" aria-label={`Show the ${props.label.toLowerCase()}`} class="segmented">
              <button type="button" class="btn secondary" aria-pressed={!raw()} onClick={() => setRaw(false)}>
                Formatted
              </button>
              <button type="button" class="btn secondary" aria-pressed={raw()} onClick={() => setRaw(true)}>
                As received
              </button>
            </div>
          </Show>
          <Show when={!raw()}>
            <label class="inline">
              <span class="visually-hidden">Search the {props.label.toLowerCase()}</span>
              <input type="search" placeholder="Search the body" value={query()} onInput={(e) => setQuery(e.currentTarget.value)} />
            </label>
            <Show when={query()}>
              <span class="hint" role="status">
                {matches()} match{matches() === 1 ? "" : "es"}
              </span>
            </Show>
          </Show>
          <span class="hint">
            {raw() ? receivedSummary(props.message) : `${props.message.bodyBytes} bytes`}
            {props.message.bodyBase64 ? ", binary (base64)" : ""}
            {(props.message.body ?? "").length > VIEW_LIMIT ? ", cut in this view" : ""}
          </span>
        </div>
        <Show
          when={raw()}
          fallback={
            <pre class="body" aria-label={props.label} tabIndex={0}>
              <For each={parts()}>{(p) => (p.match ? <mark>{p.text}</mark> : <>{p.text}</>)}</For>
            </pre>
          }
        >
          <pre class="body as-received" aria-label={`${props.label}, as received`} tabIndex={0}>
            <For each={escapedParts(cut())}>{(p) => (p.escape ? <span class="escape">{p.text}</span> : <>{p.text}</>)}</For>
          </pre>
        </Show>
      </div>
    </Show>
  );
}
