// The profile switch (docs/rehearsal.md): the bank as its sandbox or as production runs it. Production refuses
// the sandbox's tolerances, hides /v1/sandbox from TPPs and turns every known issue on; the workbench keeps
// editing mock data either way.
import { Show } from "solid-js";
import type { Profile } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { ErrorMessages } from "../../components/ErrorMessages";
import { createActions } from "../../lib/action";
import { valueOf } from "../../lib/resource";

export function ProfilePanel() {
  const wb = useWorkbench();
  const actions = createActions();
  const profile = (): Profile | undefined => valueOf(wb.session)?.profile;
  const switchTo = (next: Profile) =>
    actions.run("profile", async () => {
      await wb.client.rehearsal.setProfile({ profile: next });
      wb.refetchSession();
      wb.notify(next === "production" ? "Production profile: the bank as production runs it" : "Sandbox profile", "success");
    });
  return (
    <section class="panel profile-panel" aria-label="Profile">
      <h3>Profile</h3>
      <fieldset class="radio-row" disabled={actions.busy() !== null || !profile()}>
        <legend>Play the bank as</legend>
        <label>
          <input
            type="radio"
            name="profile"
            value="sandbox"
            checked={profile() === "sandbox"}
            onChange={() => void switchTo("sandbox")}
          />{" "}
          Sandbox
        </label>
        <label>
          <input
            type="radio"
            name="profile"
            value="production"
            checked={profile() === "production"}
            onChange={() => void switchTo("production")}
          />{" "}
          Production
        </label>
      </fieldset>
      <Show when={profile() === "production"}>
        <p class="hint">
          Tolerances are refused, <code>/v1/sandbox</code> answers 404 to TPPs, and every known issue is on.
        </p>
      </Show>
      <ErrorMessages error={actions.error()} />
    </section>
  );
}
