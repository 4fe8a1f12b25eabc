// The bank's SCA page as the PSU saw it, drawn from the recorded HTML in a shadow root: its own inline
// styles apply to it alone, nothing is fetched, no script runs (DOMParser does not run scripts, and the
// page has none), and it cannot be used (inert; forms and links are stopped). A sandboxed iframe with
// srcdoc did the same in browsers but stayed blank in the desktop app's WebKitGTK window, whose CSP
// forbids frames. Made compact for the projector as the live page is (FIT_CSS).
import { createEffect } from "solid-js";

/**
 * Sized for a 720-line projector: the bank's page as it is, made compact (type 16 px, its card without page
 * margins, slimmer header and spacing, no sandbox banner), so a step's form and its button show without
 * scrolling in the column beside the diagram.
 */
export const FIT_CSS = [
  ".page{font-size:16px;line-height:1.3}",
  ".page .card{margin:8px;padding:12px 16px;max-width:none;box-shadow:none}",
  ".page header.bank{padding:6px 14px}.page .logo{font-size:18px}.page .lang{font-size:15px}",
  // The sandbox's banner says what presentation says already; the bank's own header stays.
  ".page .sandbox{display:none}",
  ".page h1{margin:4px 0 8px;font-size:22px}.page .headline{font-size:17px}.page .lead{margin:0 0 8px}",
  ".page input[type=text]{padding:8px 10px;font-size:18px}.page button{padding:8px 16px}",
  ".page .actions{margin-top:10px}.page .hint{margin-top:12px;padding-top:8px}",
  ".page .methods button{margin:0 0 6px}.page form.cancel{margin-top:10px;padding-top:8px}",
  ".page dl.payment{margin:0 0 8px;padding:8px 12px}.page .choices li{margin:0 0 6px}.page .choices label{padding:8px 10px}",
].join("");

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
    root.innerHTML = `<style>${css}${FIT_CSS}</style><div class="page">${body}</div>`;
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
