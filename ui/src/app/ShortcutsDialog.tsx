// The list of keyboard shortcuts, opened with `?`, its keys named as the platform names them.
import { For } from "solid-js";
import { Dialog } from "../components/Dialog";
import { Button } from "../components/Button";
import { shortcuts } from "./shortcuts";

export function ShortcutsDialog(props: { onClose: () => void; returnFocus?: HTMLElement | null }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={props.onClose} returnFocus={props.returnFocus}>
      <table class="shortcuts">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Does</th>
          </tr>
        </thead>
        <tbody>
          <For each={shortcuts()}>
            {(s) => (
              <tr>
                <td>
                  <kbd>{s.keys}</kbd>
                </td>
                <td>{s.what}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <div class="actions">
        <Button variant="primary" onClick={() => props.onClose()}>
          Close
        </Button>
      </div>
    </Dialog>
  );
}
