// An inline "loading" line for data that takes more than a moment, announced politely.
export function Loading(props: { label?: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      {props.label ?? "Loading…"}
    </p>
  );
}
