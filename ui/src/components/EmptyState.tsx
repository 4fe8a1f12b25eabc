// What a screen shows before it has anything: a heading saying what is missing and what to do first.
import type { JSX } from "solid-js";

export interface EmptyStateProps {
  title: string;
  children: JSX.Element;
  action?: JSX.Element;
}

export function EmptyState(props: EmptyStateProps) {
  return (
    <section class="empty-state" aria-label={props.title}>
      <h3>{props.title}</h3>
      <div class="empty-body">{props.children}</div>
      {props.action}
    </section>
  );
}
