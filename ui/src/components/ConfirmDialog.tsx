// Asks before something that cannot be undone (resetting the sandbox, deleting a customer).
import { Dialog } from "./Dialog";
import { Button } from "./Button";

export interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  return (
    <Dialog title={props.title} description={props.message} onClose={props.onCancel}>
      <div class="actions">
        <Button onClick={() => props.onCancel()} autofocus>
          Cancel
        </Button>
        <Button variant="danger" busy={props.busy} onClick={() => props.onConfirm()}>
          {props.confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
