// The workbench API's wire types: names the UI uses for the schemas of the service's OpenAPI document,
// generated into ./generated/schema.ts by `npm run gen:types` (and drift-checked by `npm run check:types`).
// Nothing here writes the shape of a request or an answer; the one exception is marked below (NARROWED):
// fields the document types too loosely (a plain string where the service sends one of a few values),
// narrowed to what the service sends until its annotations say so.
import type { components, paths } from "./generated/schema";

type S = components["schemas"];

// ---------------------------------------------------------------------------------------------------
// NARROWED: the document's imprecise schemas, made precise for the UI in this one place. Each line names
// the schema and field; the service's OpenAPI annotations should carry these (reported to the service).

/** Replaces fields of a generated schema with narrower types. */
type Narrow<T, N extends { [K in keyof N]: K extends keyof T ? unknown : never }> = Omit<T, keyof N> & N;

export type ClockMode = "real" | "shifted" | "frozen";
export type ForcedOutcome = "RJCT" | "ACCP" | "PDNG" | "PART";

/** ClockReading.mode: a string in the document. */
export type ClockReading = Narrow<S["ClockReading"], { mode: ClockMode; offsetSeconds?: number }>;
/** Session.clock is a ClockReading. */
export type Session = Narrow<S["Session"], { clock: ClockReading }>;
/** PaymentSummary.forcedOutcome, ForcedResult: strings in the document. */
export type PaymentSummary = Narrow<S["PaymentSummary"], { forcedOutcome?: ForcedOutcome | null }>;
export type ForcedOutcomeAnswer = Narrow<
  S["ForcedResult"],
  { forcedOutcome?: ForcedOutcome | null; transactionStatus: PaymentStatus }
>;

// ---------------------------------------------------------------------------------------------------
// Workbench: personas, composer, SCA, gate, generators

export type Persona = S["Persona"];
export type PersonaStatus = Persona["status"];
export type HistoryEntry = S["HistoryLine"];
export type Operation = S["Operation"];
export type OperationGroup = S["OperationGroup"];
export type PathParam = S["PathParam"];
export type ResourceFollowed = S["Follows"];
export type Callback = S["Callback"];
export type ExportFormat = S["ExportFormat"];
export type ExportRequest = S["ExportRequest"];
export type UpdateCustomer = S["UpdateCustomer"];
export type UpdateAccount = S["UpdateAccount"];
export type UpdateCardAccount = S["UpdateCardAccount"];
export type GeneratedValue = S["GeneratedValue"];
/** The `kind` query parameter of `GET .../sandbox/generate/national-id`. */
export type NationalIdKind = NonNullable<
  NonNullable<paths["/workbench/api/sandbox/generate/national-id"]["get"]["parameters"]["query"]>["kind"]
>;
export type PendingAuthorisation = S["PendingSca"];
/** The PSU's browser on the bank's SCA pages (presentation mode). */
export type PageRequest = S["PageRequest"];
export type PageVisit = S["PageVisit"];
/** A finished SCA and where it sent the PSU (`GET /sca/finished`). */
export type FinishedAuthorisation = S["FinishedSca"];
/** The gate's verdict on a pasted request (`POST /verify`). */
export type PastedVerdict = S["Verified"];
export type GateDefinition = S["GateDefinition"];
export type GateStepDefinition = S["GateStepDefinition"];

// ---------------------------------------------------------------------------------------------------
// Errors

export type MessageCategory = S["Category"];
/** One entry of the bank's error shape; `path` is the JSON path (or header, or query parameter) at fault. */
export type TppMessage = Omit<S["TppMessage"], "code"> & { code: S["TppMessage"]["code"] | (string & {}) };
export type TppMessages = S["ErrorBody"];

// ---------------------------------------------------------------------------------------------------
// Session and clock

/** `PUT .../sandbox/clock`: exactly one of `now`, `advance`, `mode`. */
export type ClockChange = S["ClockChangeBody"];

// ---------------------------------------------------------------------------------------------------
// Sandbox data

export type PaymentStatus = S["PaymentStatus"];
export type CustomerType = S["CustomerType"];
export type Customer = S["CustomerAnswer"];
export type CustomerView = S["CustomerView"];
export type AccountSummary = S["AccountSummary"];
export type CardAccountSummary = S["CardAccountSummary"];
export type CreateCustomer = S["CreateCustomer"];
export type InitSummary = S["InitSummary"];

export type BalanceType = S["BalanceType"];
export type AccountStatus = S["AccountStatus"];
/** BalanceView.balanceType (NARROWED): a string in the document. */
export type Balance = Narrow<S["BalanceView"], { balanceType: BalanceType }>;
export type BalanceInput = S["BalanceInput"];
export type Amount = S["AmountView"];
export type AccountBody = S["CreateAccount"];
export type Account = S["AccountView"];
export type CardAccountBody = S["CreateCardAccount"];
export type CardAccount = S["CardAccountView"];

export type AccountRef = S["AccountRefInput"];
export type TransactionInput = S["TransactionInput"];
export type Transaction = S["TransactionView"];
export type CardTransactionStatus = S["CardTransactionStatus"];
export type CardTransactionInput = S["CardTransactionInput"];
export type CardTransactionList = S["CardTransactionList"];
export type GenerateTransactions = S["GenerateRequest"];
export type Generated = S["Generated"];

export type EngagementRole = S["Role"];
export type AgreementBody = S["CreateAgreement"];
export type Agreement = S["AgreementView"];
export type Engagement = S["EngagementView"];

export type BatchTrigger = S["Trigger"];
export type BatchRun = S["BatchRun"];
export type BatchOutcome = S["RunOutcome"];
export type BatchRuns = S["RunsView"];
export type Settings = S["PaymentSettings"];

// ---------------------------------------------------------------------------------------------------
// Production rehearsal (docs/rehearsal.md)

export type Profile = S["Profile"];
export type ProfileSetting = S["ProfileSetting"];
export type Plan = S["Plan"];
export type Rule = S["Rule"];
export type Preset = S["Preset"];
export type RegisteredTpp = S["RegisteredTpp"];
export type RegisterChange = S["RegisterChange"];

// ---------------------------------------------------------------------------------------------------
// TPP personas

export type Psd2Role = S["Psd2Role"];
export type PersonaSource = S["Source"];
export type IssuePersona = S["IssueRequest"];
export type ImportPersona = S["ImportRequest"];
/** `PATCH /workbench/api/personas/{id}`; `null` clears a field. */
export type PersonaPatch = S["PersonaPatch"];

// ---------------------------------------------------------------------------------------------------
// Composer

/** A header as the workbench writes it: `[name, value]`. */
export type Header = S["Draft"]["headers"] extends (infer H)[] | undefined ? H : never;
export type Draft = S["Draft"];
export type Preview = S["Prepared"];
export type Sent = S["Sent"];
export type SentRequest = S["SentRequest"];
export type SentResponse = S["SentResponse"];
export type ExportAnswer = S["ExportText"];
export type QueryParam = S["QueryParam"];

// ---------------------------------------------------------------------------------------------------
// Fixtures: state files and snapshots

export type StatePreview = S["Preview"];
export type StateMode = S["Mode"];
export type ImportOutcome = S["ImportOutcome"];
/** A recorded flow (fixtures/schema/flow.schema.json), as the flow exports answer it. */
export type FlowFile = S["FlowFile"];
export type CurrencyInfo = S["CurrencyInfo"];

// Rewind (docs/rewind.md).
export type EntryChanges = S["EntryChanges"];
export type ResourceChange = S["ResourceChange"];
export type ChangeGroup = S["ChangeGroup"];
export type FieldChange = S["FieldChange"];
export type BalanceMove = S["BalanceMove"];
export type Comparison = S["Comparison"];
export type Rewound = S["Rewound"];
export type RewindPreview = S["RewindPreview"];
export type Position = S["Position"];
export type Restart = S["Restart"];
export type PlannedStep = S["PlannedStep"];
export type NotReplayed = S["NotReplayed"];
export type Snapshot = S["Summary"];

// ---------------------------------------------------------------------------------------------------
// Value lists the forms offer, checked against the document's enums at compile time: a value the service
// adds or drops fails the type check (`Exhaustive`).

type Exhaustive<All, Listed extends readonly All[]> = [Exclude<All, Listed[number]>] extends [never] ? Listed : never;

const balanceTypes = [
  "closingBooked",
  "expected",
  "openingBooked",
  "interimAvailable",
  "interimBooked",
  "forwardAvailable",
  "nonInvoiced",
] as const;
export const BALANCE_TYPES: Exhaustive<BalanceType, typeof balanceTypes> = balanceTypes;

const accountStatuses = ["enabled", "blocked", "deleted"] as const;
export const ACCOUNT_STATUSES: Exhaustive<AccountStatus, typeof accountStatuses> = accountStatuses;

const engagementRoles = ["VIEW", "REGISTER", "APPROVE"] as const;
export const ENGAGEMENT_ROLES: Exhaustive<EngagementRole, typeof engagementRoles> = engagementRoles;

const psd2Roles = ["PSP_AI", "PSP_PI", "PSP_AS", "PSP_IC"] as const;
export const PSD2_ROLES: Exhaustive<Psd2Role, typeof psd2Roles> = psd2Roles;

export const FORCED_OUTCOMES: readonly ForcedOutcome[] = ["RJCT", "ACCP", "PDNG", "PART"];

/** ISO 20022 ExternalCashAccountType1Code values the service accepts (src/sandbox/input.rs). */
export const CASH_ACCOUNT_TYPES: readonly string[] = [
  "CACC", "CARD", "CASH", "CHAR", "CISH", "COMM", "CPAC", "LLSV", "LOAN", "MGLD", "MOMA", "NFCA",
  "NREX", "ODFT", "ONDP", "OTHR", "SACC", "SLRY", "SVGS", "TAXE", "TRAN", "TRAS", "VACC",
];

// ---------------------------------------------------------------------------------------------------
// Live events (`GET /workbench/api/events`, the document's WorkbenchEvent). NARROWED: `batch.progress` and
// `lagged`, which the stream may also send, are not in the document's list.

export type PaymentStatusEvent = S["PaymentStatusEvent"];
export type BatchRunEvent = S["BatchRunEvent"];
export type SandboxChangedEvent = S["SandboxChangedEvent"];
export type SandboxArea = SandboxChangedEvent["what"];
export type ScaStepEvent = S["ScaStepEvent"];
export type PersonaChangedEvent = S["PersonaChangedEvent"];

export interface BatchProgressEvent {
  runId: string;
  done: number;
  total: number;
}

/** The `/v1` stream's notice that a listener fell behind; the workbench stream may send it too. */
export interface LaggedEvent {
  missed: number;
}

type Documented = S["WorkbenchEvent"];
type DataOf<K extends Documented["kind"]> = Extract<Documented, { kind: K }>["data"];

export interface EventDataByKind {
  "payment.status": DataOf<"payment.status">;
  "batch.run": DataOf<"batch.run">;
  "batch.progress": BatchProgressEvent;
  clock: ClockReading;
  "sandbox.changed": DataOf<"sandbox.changed">;
  "sca.step": DataOf<"sca.step">;
  "sca.callback": DataOf<"sca.callback">;
  "persona.changed": DataOf<"persona.changed">;
  "traffic.cleared": DataOf<"traffic.cleared">;
  lagged: LaggedEvent;
}

export type EventKind = keyof EventDataByKind;

/** The `data:` line of every event. */
export interface WorkbenchEvent<K extends EventKind = EventKind> {
  kind: K;
  at: string;
  data: EventDataByKind[K];
}

// The conformance report (GET /workbench/api/conformance).

export type ConformanceVerdict = S["ConformanceVerdict"];
export type ConformanceRuleGroup = S["ConformanceGroup"];
export type ConformanceEvidence = S["ConformanceEvidence"];
export type ConformanceRuleResult = S["ConformanceRuleResult"];
export type ConformanceCounts = S["ConformanceCounts"];
export type ConformanceGroupResult = S["ConformanceGroupResult"];
export type ConformanceSelection = S["ConformanceSelection"];
export type ConformanceReport = S["ConformanceReport"];
/** `GET /workbench/api/conformance/tpps`. */
export type ConformanceTppSeen = S["ConformanceTppSeen"];

/** What to grade: the query of every conformance endpoint. */
export interface ConformanceReportQuery {
  tpp: string;
  since?: string;
  until?: string;
  journey?: string;
}
