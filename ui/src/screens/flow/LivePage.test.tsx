// The bank's page live in presentation: shown from the PSU's browser's answer, usable (a form sent goes to the
// PSU's browser with its fields and the button pressed), and done when the bank sends the PSU back to the TPP.
import { screen, waitFor } from "@solidjs/testing-library";
import { describe, expect, it } from "vitest";
import type { PageVisit } from "../../api/types";
import { renderWorkbench } from "../../test/harness";
import { json } from "../../test/fetchMock";
import { LivePage, resolvePath } from "./LivePage";

const METHOD_PAGE = `<!DOCTYPE html><html><head><style>body{color:#111}</style></head><body>
<form method="post" action="/sca/a1/method"><button type="submit" name="method" value="HA2">HA2</button></form></body></html>`;

describe("LivePage", () => {
  it("resolves a form's action and a link from the page they are on", () => {
    expect(resolvePath("/sca/a1/identify", "/sca/a1")).toBe("/sca/a1/identify");
    expect(resolvePath("?lang=nb", "/sca/a1")).toBe("/sca/a1?lang=nb");
    expect(resolvePath("confirm", "/sca/a1/")).toBe("/sca/a1/confirm");
  });

  it("sends the PSU's form through the PSU's browser and ends where the bank sends the PSU back", async () => {
    const sent: unknown[] = [];
    const left: PageVisit[] = [];
    const visit = (partial: Partial<PageVisit>): PageVisit => ({
      url: "/sca/a1",
      status: 200,
      html: METHOD_PAGE,
      leftTo: null,
      callbackVisited: false,
      ...partial,
    });
    renderWorkbench(() => <LivePage url="http://127.0.0.1:8080/sca/a1" onLeft={(v) => left.push(v)} />, {
      routes: {
        "POST /sca/page": (request) => {
          sent.push(request.body);
          return json(
            sent.length === 1
              ? visit({})
              : visit({ url: "/workbench/callback?psu-id=u1", html: "<p>SCA finished</p>", leftTo: "http://127.0.0.1:8080/workbench/callback?psu-id=u1", callbackVisited: true }),
          );
        },
      },
    });
    const host = await screen.findByRole("document", { name: "The bank's page" });
    await waitFor(() => expect(host.shadowRoot?.querySelector("button[value=HA2]")).toBeTruthy());
    expect(host).not.toHaveAttribute("inert");
    (host.shadowRoot?.querySelector("button[value=HA2]") as HTMLButtonElement).click();
    await waitFor(() => expect(left).toHaveLength(1));
    expect(sent).toEqual([
      { url: "http://127.0.0.1:8080/sca/a1", method: "GET", form: [] },
      { url: "/sca/a1/method", method: "POST", form: [["method", "HA2"]] },
    ]);
    expect(left[0]?.callbackVisited).toBe(true);
  });
});
