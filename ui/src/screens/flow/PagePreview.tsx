// The bank's SCA page as the PSU saw it, drawn from the recorded HTML in a shadow root: its own inline
// styles apply to it alone, nothing is fetched, no script runs (DOMParser does not run scripts, and the
// page has none), and it cannot be used (inert; forms and links are stopped). A sandboxed iframe with
// srcdoc did the same in browsers but stayed blank in the desktop app's WebKitGTK window, whose CSP
// forbids frames.
import { createEffect } from "solid-js";

/** The page's styles and body, with `body`/`html` selectors aimed at the preview's own root. */
export function previewParts(html: string): { css: string; body: string } {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const css = Array.from(doc.querySelectorAll("style"))
    .map((s) => s.textContent ?? "")
    .join("\n")
    .replace(/(^|[\s,{}])(html|body)(?=[\s,{.:#[>~+])/g, "$1.page");
  for (const s of Array.from(doc.body.querySelectorAll("script, style"))) s.remove();
  return { css, body: doc.body.innerHTML };
}

export function PagePreview(props: { html: string; title: string }) {
  let host!: HTMLDivElement;
  createEffect(() => {
    const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
    const { css, body } = previewParts(props.html);
    root.innerHTML = `<style>${css}</style><div class="page">${body}</div>`;
  });
  const stop = (e: Event) => e.preventDefault();
  return (
    <div
      ref={host}
      class="page-preview"
      role="document"
      aria-label={props.title}
      inert
      onSubmit={stop}
      onClick={stop}
    />
  );
}
