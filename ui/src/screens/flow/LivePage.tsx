// The bank's SCA page as the PSU has it now, live beside the diagram in presentation mode: the trainer does the
// PSU's SCA here, in the same window. The page is the bank's own HTML in a shadow root (its inline styles apply
// to it alone, it runs no script), usable: its forms and links go through the workbench's PSU browser
// (`POST /workbench/api/sca/page`), which sends them to the bank's pages as a browser does, so the PSU's steps
// are logged as the PSU's and the diagram draws them live. No frame (the pages forbid framing, and the desktop
// window's policy forbids frames) and no second window. Where the bank sends the PSU back to the TPP, the
// page is done (`onLeft`).
import { createEffect, createSignal, onMount, Show } from "solid-js";
import type { PageRequest, PageVisit } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { ErrorMessages } from "../../components/ErrorMessages";
import { FIT_CSS, previewParts } from "./PagePreview";

/** Where `target` (a form's action, a link's href) leads from the page at `at`, as a path and query. */
export function resolvePath(target: string, at: string): string {
  const url = new URL(target, new URL(at, "http://page.invalid"));
  return `${url.pathname}${url.search}`;
}

export interface LivePageProps {
  /** The page the PSU starts on (an scaRedirect). */
  url: string;
  /** The bank sent the PSU back to the TPP. */
  onLeft: (visit: PageVisit) => void;
}

export function LivePage(props: LivePageProps) {
  const wb = useWorkbench();
  const [visit, setVisit] = createSignal<PageVisit | null>(null);
  const [error, setError] = createSignal<unknown>(null);
  const [busy, setBusy] = createSignal(false);
  let host!: HTMLDivElement;

  const go = (request: PageRequest) => {
    if (busy()) return;
    setBusy(true);
    setError(null);
    wb.client.sca.page(request).then(
      (next) => {
        setBusy(false);
        setVisit(next);
        if (next.leftTo) props.onLeft(next);
      },
      (e: unknown) => {
        setBusy(false);
        setError(e);
      },
    );
  };

  onMount(() => go({ url: props.url, method: "GET", form: [] }));

  createEffect(() => {
    const page = visit();
    if (!page?.html || page.leftTo) return;
    const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
    const { css, body } = previewParts(page.html);
    root.innerHTML = `<style>${css}${FIT_CSS}</style><div class="page">${body}</div>`;
    // The page's landmarks are the bank's document's, not the workbench's: inside presentation they would be
    // a second main region and banner of the workbench's page.
    for (const landmark of root.querySelectorAll("main, header, footer, nav, aside")) landmark.setAttribute("role", "none");
    // The bank's pages put the focus on their first field; here the trainer's next key should type there.
    root.querySelector<HTMLElement>("[autofocus]")?.focus();
  });

  onMount(() => {
    const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
    root.addEventListener("submit", (event) => {
      event.preventDefault();
      const form = event.target as HTMLFormElement;
      const submitter = (event as SubmitEvent).submitter;
      const fields = [...new FormData(form, submitter ?? undefined).entries()].map(
        ([name, value]) => [name, typeof value === "string" ? value : value.name] as [string, string],
      );
      const at = visit()?.url ?? props.url;
      const method = (form.getAttribute("method") ?? "get").toUpperCase() === "POST" ? "POST" : "GET";
      go({ url: resolvePath(form.getAttribute("action") ?? at, at), method, form: fields });
    });
    root.addEventListener("click", (event) => {
      const link = (event.target as Element | null)?.closest?.("a[href]");
      if (!link) return;
      event.preventDefault();
      const at = visit()?.url ?? props.url;
      const path = resolvePath(link.getAttribute("href") ?? at, at);
      if (path.startsWith("/sca/")) go({ url: path, method: "GET", form: [] });
    });
  });

  return (
    <>
      <ErrorMessages error={error()} title="The bank's page could not be reached." />
      <Show when={!visit() && !error()}>
        <p class="hint">Opening the bank's page…</p>
      </Show>
      <div ref={host} class="page-preview live-page" role="document" aria-label="The bank's page" aria-busy={busy()} />
    </>
  );
}
