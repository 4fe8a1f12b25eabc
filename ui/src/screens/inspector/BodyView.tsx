// A recorded body, formatted when it is JSON, with a search box that marks every match and counts them.
// Long bodies are cut in the view (kept whole in the log); binary ones say so.
import { createMemo, createSignal, For, Show } from "solid-js";
import type { RecordedMessage } from "../../api/traffic";
import { prettyJson } from "../../lib/format";

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

export function BodyView(props: { message: RecordedMessage; label: string }) {
  const [query, setQuery] = createSignal("");
  const text = createMemo(() => {
    const body = props.message.body ?? "";
    const cut = body.length > VIEW_LIMIT ? body.slice(0, VIEW_LIMIT) : body;
    return props.message.bodyBase64 ? cut : prettyJson(cut);
  });
  const parts = createMemo(() => markMatches(text(), query()));
  const matches = () => parts().filter((p) => p.match).length;
  return (
    <Show when={props.message.body} fallback={<p class="hint">No body.</p>}>
      <div class="body-view">
        <div class="toolbar">
          <label class="inline">
            <span class="visually-hidden">Search the {props.label.toLowerCase()}</span>
            <input type="search" placeholder="Search the body" value={query()} onInput={(e) => setQuery(e.currentTarget.value)} />
          </label>
          <Show when={query()}>
            <span class="hint" role="status">
              {matches()} match{matches() === 1 ? "" : "es"}
            </span>
          </Show>
          <span class="hint">
            {props.message.bodyBytes} bytes{props.message.bodyBase64 ? ", binary (base64)" : ""}
            {(props.message.body ?? "").length > VIEW_LIMIT ? ", cut in this view" : ""}
          </span>
        </div>
        <pre class="body" aria-label={props.label} tabIndex={0}>
          <For each={parts()}>{(p) => (p.match ? <mark>{p.text}</mark> : <>{p.text}</>)}</For>
        </pre>
      </div>
    </Show>
  );
}
