// A modal dialog: role=dialog with aria-modal and a labelling heading, focus moved in on open, kept inside
// with Tab, Escape closes, focus returned to where it was on close.
import { createUniqueId, onCleanup, onMount } from "solid-js";
import type { JSX } from "solid-js";
import { Portal } from "solid-js/web";

export interface DialogProps {
  title: string;
  onClose: () => void;
  children: JSX.Element;
  /** A short description read after the title. */
  description?: string;
  /** Where the focus goes on close; by default where it was on open (the control that opened the dialog). */
  returnFocus?: HTMLElement | null;
}

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Dialog(props: DialogProps) {
  const titleId = createUniqueId();
  const descriptionId = `${titleId}-description`;
  let panel!: HTMLDivElement;
  const focused = document.activeElement as HTMLElement | null;
  // eslint-disable-next-line solid/reactivity -- read once, on open
  const before = props.returnFocus ?? (focused && focused !== document.body ? focused : null);

  const focusables = () => Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE));

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      props.onClose();
      return;
    }
    if (e.key !== "Tab") return;
    const list = focusables();
    if (list.length === 0) {
      e.preventDefault();
      return;
    }
    const first = list[0]!;
    const last = list[list.length - 1]!;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  onMount(() => {
    const target = panel.querySelector<HTMLElement>("[autofocus]") ?? focusables()[0] ?? panel;
    target.focus();
  });
  onCleanup(() => before?.focus?.());

  return (
    <Portal>
      <div class="dialog-backdrop" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
        <div
          ref={panel}
          class="dialog"
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          aria-describedby={props.description ? descriptionId : undefined}
          tabIndex={-1}
          onKeyDown={onKeyDown}
        >
          <h2 id={titleId}>{props.title}</h2>
          {props.description ? <p id={descriptionId}>{props.description}</p> : null}
          {props.children}
        </div>
      </div>
    </Portal>
  );
}
