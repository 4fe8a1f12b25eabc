// The workbench API, one typed function per endpoint of docs/workbench-api.md, over one Transport.
import type { QueryValue, Transport } from "./http";
import { trafficQuery } from "./traffic";
import type { Entry, Exchange, Journey, JourneyEntries, TrafficFilter, TrafficPage, TrafficSettings } from "./traffic";
import type {
  Account,
  AccountBody,
  Agreement,
  AgreementBody,
  BatchRun,
  BatchRuns,
  Callback,
  CardAccount,
  CardAccountBody,
  CardTransactionInput,
  CardTransactionList,
  ClockChange,
  ClockReading,
  ConformanceReport,
  ConformanceReportQuery,
  ConformanceTppSeen,
  CreateCustomer,
  Comparison,
  Customer,
  CustomerView,
  EntryChanges,
  Draft,
  ExportAnswer,
  ExportFormat,
  ForcedOutcome,
  ForcedOutcomeAnswer,
  GateDefinition,
  GenerateTransactions,
  Generated,
  GeneratedValue,
  HistoryEntry,
  ImportOutcome,
  ImportPersona,
  InitSummary,
  NationalIdKind,
  IssuePersona,
  Operation,
  PaymentStatus,
  PaymentSummary,
  PendingAuthorisation,
  Persona,
  PersonaPatch,
  Plan,
  Position,
  Preset,
  Preview,
  ProfileSetting,
  RegisterChange,
  RegisteredTpp,
  Restart,
  RewindPreview,
  Rewound,
  Rule,
  Sent,
  Session,
  Settings,
  Snapshot,
  StateMode,
  Transaction,
  TransactionInput,
  UpdateCustomer,
} from "./types";

const seg = encodeURIComponent;

function reportQuery(q: ConformanceReportQuery): Record<string, QueryValue> {
  return { tpp: q.tpp, since: q.since, until: q.until, journey: q.journey };
}

export function createClient(t: Transport) {
  return {
    transport: t,

    session: () => t.request<Session>("GET", "/session"),
    /** The live event stream (EventSource, so the token goes in the URL). */
    eventsUrl: () => t.url("/events", true),

    sandbox: {
      initialize: () => t.request<InitSummary>("POST", "/sandbox/initialize"),
      customers: () => t.request<CustomerView[]>("GET", "/sandbox/customers"),
      createCustomer: (body: CreateCustomer) => t.request<Customer>("POST", "/sandbox/customers", body),
      updateCustomer: (id: string, body: UpdateCustomer) =>
        t.request<Customer>("PUT", `/sandbox/customers/${seg(id)}`, body),
      deleteCustomer: (id: string) => t.request<void>("DELETE", `/sandbox/customers/${seg(id)}`),

      createAccount: (body: AccountBody) => t.request<Account>("POST", "/sandbox/accounts", body),
      account: (id: string) => t.request<Account>("GET", `/sandbox/accounts/${seg(id)}`),
      updateAccount: (id: string, body: AccountBody) =>
        t.request<Account>("PUT", `/sandbox/accounts/${seg(id)}`, body),
      transactions: (id: string, query?: Record<string, QueryValue>) =>
        t.request<Transaction[]>("GET", `/sandbox/accounts/${seg(id)}/transactions`, undefined, query ? { query } : {}),
      addTransactions: (id: string, items: TransactionInput[]) =>
        t.request<Transaction[]>("POST", `/sandbox/accounts/${seg(id)}/transactions`, items),
      generateTransactions: (id: string, body: GenerateTransactions) =>
        t.request<Generated>("POST", `/sandbox/accounts/${seg(id)}/transactions/generate`, body),

      createCardAccount: (body: CardAccountBody) => t.request<CardAccount>("POST", "/sandbox/card-accounts", body),
      cardAccount: (id: string) => t.request<CardAccount>("GET", `/sandbox/card-accounts/${seg(id)}`),
      updateCardAccount: (id: string, body: CardAccountBody) =>
        t.request<CardAccount>("PUT", `/sandbox/card-accounts/${seg(id)}`, body),
      cardTransactions: (id: string, query: Record<string, QueryValue> = { bookingStatus: "both" }) =>
        t.request<CardTransactionList>("GET", `/sandbox/card-accounts/${seg(id)}/transactions`, undefined, { query }),
      addCardTransactions: (id: string, items: CardTransactionInput[]) =>
        t.request<unknown>("POST", `/sandbox/card-accounts/${seg(id)}/transactions`, items),

      agreements: () => t.request<Agreement[]>("GET", "/sandbox/agreements"),
      createAgreement: (body: AgreementBody) => t.request<Agreement>("POST", "/sandbox/agreements", body),

      clock: () => t.request<ClockReading>("GET", "/sandbox/clock"),
      changeClock: (change: ClockChange) => t.request<ClockReading>("PUT", "/sandbox/clock", change),

      batchRuns: (limit?: number) =>
        t.request<BatchRuns>("GET", "/sandbox/batch-runs", undefined, limit ? { query: { limit } } : {}),
      runBatchNow: () => t.request<BatchRun>("POST", "/sandbox/batch-runs"),

      payments: (query: { status?: PaymentStatus | ""; limit?: number } = {}) =>
        t.request<PaymentSummary[]>("GET", "/sandbox/payments", undefined, { query }),
      forceOutcome: (paymentId: string, outcome: ForcedOutcome | null) =>
        t.request<ForcedOutcomeAnswer>("PUT", `/sandbox/payments/${seg(paymentId)}/forced-outcome`, { outcome }),

      /** Valid identifiers, not used by any customer or account yet (the mock-data scripts' numbers). */
      generate: {
        nationalId: (kind: NationalIdKind) =>
          t.request<GeneratedValue>("GET", "/sandbox/generate/national-id", undefined, { query: { kind } }),
        orgNumber: () => t.request<GeneratedValue>("GET", "/sandbox/generate/org-number"),
        bban: () => t.request<GeneratedValue>("GET", "/sandbox/generate/bban"),
      },

      settings: () => t.request<Settings>("GET", "/sandbox/settings"),
      updateSettings: (body: Settings) => t.request<Settings>("PUT", "/sandbox/settings", body),
    },

    personas: {
      list: () => t.request<Persona[]>("GET", "/personas"),
      issue: (body: IssuePersona) => t.request<Persona>("POST", "/personas", body),
      import: (body: ImportPersona) => t.request<Persona>("POST", "/personas/import", body),
      update: (id: string, patch: PersonaPatch) => t.request<Persona>("PATCH", `/personas/${seg(id)}`, patch),
      remove: (id: string) => t.request<void>("DELETE", `/personas/${seg(id)}`),
      certificate: (id: string) =>
        t.request<string>("GET", `/personas/${seg(id)}/certificate`, undefined, { text: true }),
    },

    compose: {
      operations: () => t.request<Operation[]>("GET", "/operations"),
      preview: (draft: Draft) => t.request<Preview>("POST", "/compose/preview", draft),
      send: (draft: Draft) => t.request<Sent>("POST", "/compose/send", draft),
      history: () => t.request<HistoryEntry[]>("GET", "/compose/history"),
      historyEntry: (id: string) => t.request<Sent>("GET", `/compose/history/${seg(id)}`),
      export: (draft: Draft, format: ExportFormat) =>
        t.request<ExportAnswer>("POST", "/compose/export", { draft, format }),
    },

    sca: {
      callbacks: () => t.request<Callback[]>("GET", "/sca/callbacks"),
      /** The authorisations not finished yet, newest first. */
      pending: () => t.request<PendingAuthorisation[]>("GET", "/sca/pending"),
    },

    /** The signed-request gate's steps and the headers it signs and requires, as the verifier has them. */
    gate: () => t.request<GateDefinition>("GET", "/gate"),

    fixtures: {
      /** The whole state as a state file (docs/fixtures.md), as text to save unchanged. */
      exportState: () => t.request<string>("GET", "/state", undefined, { text: true }),
      /** What importing a state file would change (`preview`), or the import itself. */
      importState: (file: string, mode: StateMode, preview: boolean) =>
        t.request<ImportOutcome>("POST", "/state", file, { raw: true, query: { mode, preview: preview ? true : undefined } }),
      snapshots: () => t.request<Snapshot[]>("GET", "/snapshots"),
      takeSnapshot: (name: string) => t.request<Snapshot>("PUT", `/snapshots/${seg(name)}`),
      snapshotFile: (name: string) => t.request<string>("GET", `/snapshots/${seg(name)}`, undefined, { text: true }),
      restoreSnapshot: (name: string) => t.request<ImportOutcome>("POST", `/snapshots/${seg(name)}/restore`),
      deleteSnapshot: (name: string) => t.request<void>("DELETE", `/snapshots/${seg(name)}`),
    },

    /** Production rehearsal (docs/rehearsal.md): the profile, the fault plan, the central register. */
    rehearsal: {
      profile: () => t.request<ProfileSetting>("GET", "/profile"),
      setProfile: (body: ProfileSetting) => t.request<ProfileSetting>("PUT", "/profile", body),
      faults: () => t.request<Plan>("GET", "/faults"),
      presets: () => t.request<Preset[]>("GET", "/faults/presets"),
      addRule: (rule: Rule) => t.request<Plan>("POST", "/faults/rules", rule),
      setRuleEnabled: (id: string, enabled: boolean) =>
        t.request<Plan>("PATCH", `/faults/rules/${seg(id)}`, { enabled }),
      deleteRule: (id: string) => t.request<Plan>("DELETE", `/faults/rules/${seg(id)}`),
      register: () => t.request<RegisteredTpp[]>("GET", "/register"),
      changeRegister: (organisationId: string, body: RegisterChange) =>
        t.request<RegisteredTpp>("PATCH", `/register/${seg(organisationId)}`, body),
    },

    traffic: {
      page: (filter: TrafficFilter, before?: number | null, limit?: number, signal?: AbortSignal) =>
        t.request<TrafficPage>("GET", "/traffic", undefined, {
          query: trafficQuery(filter, before, limit),
          ...(signal ? { signal } : {}),
        }),
      /** An exchange whole, or the event entry. */
      entry: (id: number) => t.request<Exchange | Entry>("GET", `/traffic/${id}`),
      har: (id: number) => t.request<unknown>("GET", `/traffic/${id}/har`),
      streamUrl: () => t.url("/traffic/stream", true),
      journeys: (limit = 50) => t.request<Journey[]>("GET", "/journeys", undefined, { query: { limit } }),
      journey: (id: string) => t.request<JourneyEntries>("GET", `/journeys/${seg(id)}`),
      settings: () => t.request<TrafficSettings>("GET", "/traffic/settings"),
      updateSettings: (body: TrafficSettings) => t.request<TrafficSettings>("PUT", "/traffic/settings", body),
    },

    /** docs/rewind.md: what an entry changed, the state at an entry, the sandbox returned to it. */
    rewind: {
      changes: (id: number) => t.request<EntryChanges>("GET", `/traffic/${id}/changes`),
      /** What `to` would undo now (nothing applied): the confirmation says it before anyone rewinds. */
      preview: (to: number, position: Position) =>
        t.request<RewindPreview>("GET", "/rewind/preview", undefined, { query: { to, position } }),
      to: (to: number, position: Position) => t.request<Rewound>("POST", "/rewind", { to, position }),
      /** The state file of the state before or after entry `id`. */
      stateAt: (id: number, position: Position) =>
        t.request<string>("GET", `/state/at/${id}`, undefined, { query: { position }, text: true }),
      compare: (a: number, b: number, aPosition: Position = "after", bPosition: Position = "after") =>
        t.request<Comparison>("GET", "/state/compare", undefined, { query: { a, b, aPosition, bPosition } }),
      restart: (journey: string, from: number, paceMs?: number) =>
        t.request<Restart>("POST", `/journeys/${seg(journey)}/restart`, paceMs === undefined ? { from } : { from, paceMs }),
    },

    conformance: {
      /** The TPPs the traffic log has seen, most recently active first. */
      tpps: () => t.request<ConformanceTppSeen[]>("GET", "/conformance/tpps"),
      report: (q: ConformanceReportQuery) => t.request<ConformanceReport>("GET", "/conformance", undefined, { query: reportQuery(q) }),
      /** The report as JUnit XML (one test case per rule), as text to save. */
      junit: (q: ConformanceReportQuery) =>
        t.request<string>("GET", "/conformance/junit", undefined, { query: reportQuery(q), text: true }),
      /** The report as self-contained HTML, as text to save. */
      html: (q: ConformanceReportQuery) =>
        t.request<string>("GET", "/conformance/html", undefined, { query: reportQuery(q), text: true }),
    },
  };
}

export type Client = ReturnType<typeof createClient>;
