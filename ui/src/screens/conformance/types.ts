// The conformance report's wire types (GET /workbench/api/conformance, fixtures/schema/
// conformance-report.schema.json): the service's ConformanceReport and the schemas it names, field for
// field. They move to the types generated from the OpenAPI document as soon as the UI generates its types.

export type Verdict = "PASSED" | "FAILED" | "WARNING" | "REVIEW" | "NOT_EXERCISED";

export type RuleGroup = "preflight" | "signing" | "headers" | "sca-consent" | "payments" | "robustness" | "general";

export interface Evidence {
  exchangeId: number | null;
  step: number | null;
  at: string | null;
  method: string;
  path: string;
  status: number;
  journeys: string[];
  note: string;
}

export interface RuleResult {
  id: string;
  group: RuleGroup;
  title: string;
  specSection: string;
  checks: string;
  production: string;
  verdict: Verdict;
  summary: string;
  exercised: number;
  evidence: Evidence[];
  evidenceOmitted: number;
}

export interface Counts {
  passed: number;
  failed: number;
  warning: number;
  review: number;
  notExercised: number;
}

export interface GroupResult {
  group: RuleGroup;
  title: string;
  verdict: Verdict;
  counts: Counts;
  rules: RuleResult[];
}

export interface Selection {
  source: "traffic-log" | "flow-file";
  tpp: { organisationId: string; name: string } | null;
  since: string | null;
  until: string | null;
  journey: string | null;
  flowFile: string | null;
  exchanges: number;
  bankExchanges: number;
  sandboxExchanges: number;
  scaPageExchanges: number;
  firstAt: string | null;
  lastAt: string | null;
  truncated: boolean;
}

export interface Report {
  format: string;
  version: number;
  sandboxVersion: string;
  generatedAt: string;
  selection: Selection;
  verdict: Verdict;
  counts: Counts;
  preflight: RuleResult[];
  groups: GroupResult[];
  notes: string[];
}

/** `GET /workbench/api/conformance/tpps`. */
export interface TppSeen {
  organisationId: string;
  name: string;
  exchanges: number;
  firstAt: string;
  lastAt: string;
}

/** What to grade: the query of every conformance endpoint. */
export interface ReportQuery {
  tpp: string;
  since?: string;
  until?: string;
  journey?: string;
}
