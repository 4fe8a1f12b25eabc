// The simulated central register (docs/rehearsal.md): every TPP seen with its roles; the operator marks one
// unregistered, withdraws a role or revokes its certificate at the NCA, and its next request is refused.
import { createResource, For, Show } from "solid-js";
import type { Psd2Role, RegisterChange, RegisteredTpp } from "../../api/types";
import { useWorkbench } from "../../app/context";
import { Button } from "../../components/Button";
import { ErrorMessages } from "../../components/ErrorMessages";
import { createActions } from "../../lib/action";
import { formatInstant } from "../../lib/format";
import { valueOf } from "../../lib/resource";

export function RegisterPanel() {
  const wb = useWorkbench();
  const actions = createActions();
  const [list, { mutate, refetch }] = createResource(() => wb.client.rehearsal.register());
  const change = (tpp: RegisteredTpp, key: string, body: RegisterChange) =>
    actions.run(`${key}-${tpp.organisationId}`, async () => {
      const changed = await wb.client.rehearsal.changeRegister(tpp.organisationId, body);
      mutate((valueOf(list) ?? []).map((t) => (t.organisationId === changed.organisationId ? changed : t)));
    });
  const withdrawn = (tpp: RegisteredTpp, role: Psd2Role) => (tpp.withdrawnRoles ?? []).includes(role);
  const revoked = (tpp: RegisteredTpp) => (tpp.revokedSerials ?? []).includes(tpp.serial);

  return (
    <section class="panel register-panel" aria-label="Central register">
      <h3>Central register</h3>
      <div class="actions">
        <Button onClick={() => void refetch()}>Refresh</Button>
      </div>
      <ErrorMessages error={(list.error as unknown) ?? actions.error()} />
      <Show when={(valueOf(list) ?? []).length > 0} fallback={<p class="hint">No TPP has called the bank yet.</p>}>
        <ul class="register-list">
          <For each={valueOf(list)}>
            {(tpp) => (
              <li aria-label={`TPP ${tpp.organisationId}`}>
                <strong>{tpp.name || tpp.organisationId}</strong> <code>{tpp.organisationId}</code>
                <p class="hint">
                  Seen {formatInstant(tpp.firstSeen)} – {formatInstant(tpp.lastSeen)}
                </p>
                <div class="register-switches">
                  <label>
                    <input
                      type="checkbox"
                      checked={tpp.registered}
                      onChange={(e) => void change(tpp, "registered", { registered: e.currentTarget.checked })}
                    />{" "}
                    Registered at the NCA
                  </label>
                  <For each={tpp.roles}>
                    {(role) => (
                      <label>
                        <input
                          type="checkbox"
                          checked={!withdrawn(tpp, role)}
                          onChange={(e) =>
                            void change(tpp, "role", {
                              withdrawnRoles: e.currentTarget.checked
                                ? (tpp.withdrawnRoles ?? []).filter((r) => r !== role)
                                : [...(tpp.withdrawnRoles ?? []), role],
                            })
                          }
                        />{" "}
                        Role {role}
                      </label>
                    )}
                  </For>
                  <label>
                    <input
                      type="checkbox"
                      checked={revoked(tpp)}
                      onChange={(e) => void change(tpp, "revoked", { certificateRevoked: e.currentTarget.checked })}
                    />{" "}
                    Certificate revoked
                  </label>
                </div>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </section>
  );
}
