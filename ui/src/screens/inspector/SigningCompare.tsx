// The signing string the sandbox computed beside the one the client signed (the composer's own, or one the
// user pastes), line by line, the differing lines and characters marked.
import { createMemo, createSignal, For, Show } from "solid-js";
import type { Segment } from "../../lib/diff";
import { diffLines } from "../../lib/diff";
import { count } from "../../lib/format";

function Line(props: { segments: Segment[] | null }) {
  return (
    <For each={props.segments ?? []}>{(s) => (s.changed ? <mark class="diff-mark">{s.text}</mark> : <>{s.text}</>)}</For>
  );
}

export function SigningCompare(props: {
  computed: string;
  /** The composer's signing string, when the composer sent it. */
  composer: string | null;
  onClientString?: (text: string | null) => void;
}) {
  const [pasted, setPasted] = createSignal("");
  const client = () => props.composer ?? (pasted().trim() ? pasted() : null);
  const rows = createMemo(() => {
    const c = client();
    return c === null ? null : diffLines(props.computed, c);
  });
  const differing = () => (rows() ?? []).filter((r) => r.kind !== "same").length;

  return (
    <section class="signing-compare" aria-label="Signing strings">
      <h4>Signing string</h4>
      <Show when={props.composer === null}>
        <label class="field">
          <span>The client's signing string (paste it to compare)</span>
          <textarea
            rows={4}
            spellcheck={false}
            value={pasted()}
            onInput={(e) => {
              setPasted(e.currentTarget.value);
              props.onClientString?.(e.currentTarget.value.trim() ? e.currentTarget.value : null);
            }}
          />
        </label>
      </Show>
      <Show
        when={rows()}
        fallback={
          <div>
            <p class="hint">Computed by the sandbox:</p>
            <pre class="signing-string" aria-label="Computed by the sandbox" tabIndex={0}>{props.computed}</pre>
          </div>
        }
      >
        {(list) => (
          <>
            <p role="status" class={differing() > 0 ? "diff-summary bad" : "diff-summary ok"}>
              {differing() > 0
                ? `${count(differing(), "line")} ${differing() === 1 ? "differs" : "differ"}`
                : "The two signing strings are identical"}
              {props.composer !== null ? " (client: the composer's own)" : ""}
            </p>
            <table class="diff" aria-label="Signing string comparison">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Computed by the sandbox</th>
                  <th scope="col">#</th>
                  <th scope="col">Signed by the client</th>
                </tr>
              </thead>
              <tbody>
                <For each={list()}>
                  {(row) => (
                    <tr class={`diff-row ${row.kind}`} data-kind={row.kind}>
                      <td class="diff-no">{row.leftLine ?? ""}</td>
                      <td class="diff-text">
                        <code>
                          <Line segments={row.left} />
                        </code>
                      </td>
                      <td class="diff-no">{row.rightLine ?? ""}</td>
                      <td class="diff-text">
                        <code>
                          <Line segments={row.right} />
                        </code>
                      </td>
                    </tr>
                  )}
                </For>
              </tbody>
            </table>
          </>
        )}
      </Show>
    </section>
  );
}
