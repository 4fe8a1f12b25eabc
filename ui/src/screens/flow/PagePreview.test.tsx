import { render } from "@solidjs/testing-library";
import { describe, expect, it } from "vitest";
import { PagePreview, previewParts } from "./PagePreview";

const page = `<!doctype html><html lang="nb"><head><title>Bekreft - Banken</title>
<style>html,body{margin:0}body{font-family:sans-serif} .card{padding:1rem}</style></head>
<body><main class="card"><h1>Bekreft betalingen</h1><form method="post" action="/sca/1/confirm">
<button>Bekreft</button></form><script>alert(1)</script></main></body></html>`;

describe("the SCA page preview", () => {
  it("keeps the page's styles, aimed at its own root, and drops scripts", () => {
    const { css, body } = previewParts(page);
    expect(css).toContain(".page,.page{margin:0}.page{font-family:sans-serif}");
    expect(css).toContain(".card{padding:1rem}");
    expect(body).toContain("Bekreft betalingen");
    expect(body).not.toContain("<script");
  });

  it("draws the page inert in a shadow root", () => {
    const { container } = render(() => <PagePreview title="SCA page" html={page} />);
    const host = container.querySelector(".page-preview") as HTMLElement;
    expect(host.hasAttribute("inert")).toBe(true);
    expect(host.getAttribute("aria-label")).toBe("SCA page");
    const root = host.shadowRoot!;
    expect(root.querySelector("h1")?.textContent).toBe("Bekreft betalingen");
    expect(root.querySelector("style")?.textContent).toContain(".card{padding:1rem}");
    expect(root.querySelector("script")).toBeNull();
  });
});
