// A short status word (payment status, persona status, HTTP status) with a colour that follows its meaning.
export type BadgeTone = "ok" | "warn" | "bad" | "neutral";

const TONES: Record<string, BadgeTone> = {
  ACSC: "ok",
  ACTC: "ok",
  ACSP: "ok",
  ACCP: "warn",
  PDNG: "warn",
  RCVD: "neutral",
  PART: "warn",
  RJCT: "bad",
  CANC: "bad",
  valid: "ok",
  expired: "bad",
  "not-yet-valid": "warn",
  untrusted: "bad",
  "no-roles": "bad",
  success: "ok",
  failure: "bad",
};

export function toneOf(value: string | number): BadgeTone {
  if (typeof value === "number") return value >= 500 ? "bad" : value >= 400 ? "bad" : value >= 300 ? "warn" : "ok";
  return TONES[value] ?? "neutral";
}

export function StatusBadge(props: { value: string | number; label?: string }) {
  return (
    <span class={`badge ${toneOf(props.value)}`} title={props.label}>
      {String(props.value)}
    </span>
  );
}
