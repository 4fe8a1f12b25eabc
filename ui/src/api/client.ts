// The workbench API, one typed function per endpoint of docs/workbench-api.md, over one Transport. Every call
// goes through the transport's openapi-fetch client with a path of the service's OpenAPI document (a key of
// the generated `paths`), so the compiler checks each path, its parameters and its body against the document;
// no path is put together here by hand (client.paths.test.ts fails the build if one is).
import { AS_IS, AS_TEXT, answer } from "./http";
import type { ApiPath, Transport } from "./http";
import type { components, paths } from "./generated/schema";
import { trafficQuery } from "./traffic";
import type {
  Entry,
  Exchange,
  Journey,
  JourneyEntries,
  TrafficCleared,
  TrafficFilter,
  TrafficPage,
  TrafficSettings,
} from "./traffic";
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
  CurrencyInfo,
  Comparison,
  Customer,
  CustomerView,
  EntryChanges,
  Draft,
  ExportAnswer,
  FinishedAuthorisation,
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
  PageRequest,
  PageVisit,
  PaymentStatus,
  PastedVerdict,
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

/** The query a GET of a path takes, as the document has it. */
type QueryOf<P extends ApiPath> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;

function reportQuery(q: ConformanceReportQuery): QueryOf<"/workbench/api/conformance"> {
  return { tpp: q.tpp, since: q.since, until: q.until, journey: q.journey };
}

// Each function's type is the document's answer. Where it says `as Promise<X>`, X is one of the UI's NARROWED
// types (types.ts, traffic.ts) or a tuple openapi-fetch loses (below): an assertion TypeScript allows only
// towards a type the document's answer is comparable to.
export function createClient(t: Transport) {
  const { api } = t;
  return {
    session: () => answer(api.GET("/workbench/api/session")) as Promise<Session>,
    /** The live event stream (EventSource, so the token goes in the URL). */
    eventsUrl: () => t.url("/workbench/api/events", true),

    sandbox: {
      initialize: (): Promise<InitSummary> => answer(api.POST("/workbench/api/sandbox/initialize")),
      customers: (): Promise<CustomerView[]> => answer(api.GET("/workbench/api/sandbox/customers")),
      createCustomer: (body: CreateCustomer): Promise<Customer> =>
        answer(api.POST("/workbench/api/sandbox/customers", { body })),
      updateCustomer: (customerId: string, body: UpdateCustomer): Promise<Customer> =>
        answer(api.PUT("/workbench/api/sandbox/customers/{customerId}", { params: { path: { customerId } }, body })),
      deleteCustomer: (customerId: string): Promise<void> =>
        answer(api.DELETE("/workbench/api/sandbox/customers/{customerId}", { params: { path: { customerId } } })),

      createAccount: (body: AccountBody): Promise<Account> => answer(api.POST("/workbench/api/sandbox/accounts", { body })),
      account: (mockAccountId: string): Promise<Account> =>
        answer(api.GET("/workbench/api/sandbox/accounts/{mockAccountId}", { params: { path: { mockAccountId } } })),
      updateAccount: (mockAccountId: string, body: AccountBody): Promise<Account> =>
        answer(api.PUT("/workbench/api/sandbox/accounts/{mockAccountId}", { params: { path: { mockAccountId } }, body })),
      transactions: (
        mockAccountId: string,
        query?: QueryOf<"/workbench/api/sandbox/accounts/{mockAccountId}/transactions">,
      ): Promise<Transaction[]> =>
        answer(
          api.GET("/workbench/api/sandbox/accounts/{mockAccountId}/transactions", {
            params: { path: { mockAccountId }, query },
          }),
        ),
      addTransactions: (mockAccountId: string, body: TransactionInput[]): Promise<Transaction[]> =>
        answer(
          api.POST("/workbench/api/sandbox/accounts/{mockAccountId}/transactions", { params: { path: { mockAccountId } }, body }),
        ),
      generateTransactions: (mockAccountId: string, body: GenerateTransactions): Promise<Generated> =>
        answer(
          api.POST("/workbench/api/sandbox/accounts/{mockAccountId}/transactions/generate", {
            params: { path: { mockAccountId } },
            body,
          }),
        ),

      createCardAccount: (body: CardAccountBody): Promise<CardAccount> =>
        answer(api.POST("/workbench/api/sandbox/card-accounts", { body })),
      cardAccount: (mockCardAccountId: string): Promise<CardAccount> =>
        answer(api.GET("/workbench/api/sandbox/card-accounts/{mockCardAccountId}", { params: { path: { mockCardAccountId } } })),
      updateCardAccount: (mockCardAccountId: string, body: CardAccountBody): Promise<CardAccount> =>
        answer(
          api.PUT("/workbench/api/sandbox/card-accounts/{mockCardAccountId}", { params: { path: { mockCardAccountId } }, body }),
        ),
      cardTransactions: (
        mockCardAccountId: string,
        query: QueryOf<"/workbench/api/sandbox/card-accounts/{mockCardAccountId}/transactions"> = { bookingStatus: "both" },
      ): Promise<CardTransactionList> =>
        answer(
          api.GET("/workbench/api/sandbox/card-accounts/{mockCardAccountId}/transactions", {
            params: { path: { mockCardAccountId }, query },
          }),
        ),
      addCardTransactions: (mockCardAccountId: string, body: CardTransactionInput[]): Promise<unknown> =>
        answer(
          api.POST("/workbench/api/sandbox/card-accounts/{mockCardAccountId}/transactions", {
            params: { path: { mockCardAccountId } },
            body,
          }),
        ),

      agreements: (): Promise<Agreement[]> => answer(api.GET("/workbench/api/sandbox/agreements")),
      createAgreement: (body: AgreementBody): Promise<Agreement> =>
        answer(api.POST("/workbench/api/sandbox/agreements", { body })),

      clock: () => answer(api.GET("/workbench/api/sandbox/clock")) as Promise<ClockReading>,
      changeClock: (body: ClockChange) => answer(api.PUT("/workbench/api/sandbox/clock", { body })) as Promise<ClockReading>,

      batchRuns: (limit?: number): Promise<BatchRuns> =>
        answer(api.GET("/workbench/api/sandbox/batch-runs", { params: { query: { limit: limit || undefined } } })),
      runBatchNow: (): Promise<BatchRun> => answer(api.POST("/workbench/api/sandbox/batch-runs")),

      payments: (query: { status?: PaymentStatus | ""; limit?: number } = {}) =>
        answer(
          api.GET("/workbench/api/sandbox/payments", {
            params: { query: { status: query.status || undefined, limit: query.limit } },
          }),
        ) as Promise<PaymentSummary[]>,
      forceOutcome: (paymentId: string, outcome: ForcedOutcome | null) =>
        answer(
          api.PUT("/workbench/api/sandbox/payments/{paymentId}/forced-outcome", {
            params: { path: { paymentId } },
            body: { outcome },
          }),
        ) as Promise<ForcedOutcomeAnswer>,

      /** Valid identifiers, not used by any customer or account yet (the mock-data scripts' numbers). */
      generate: {
        nationalId: (kind: NationalIdKind): Promise<GeneratedValue> =>
          answer(api.GET("/workbench/api/sandbox/generate/national-id", { params: { query: { kind } } })),
        orgNumber: (): Promise<GeneratedValue> => answer(api.GET("/workbench/api/sandbox/generate/org-number")),
        bban: (): Promise<GeneratedValue> => answer(api.GET("/workbench/api/sandbox/generate/bban")),
      },

      settings: (): Promise<Settings> => answer(api.GET("/workbench/api/sandbox/settings")),
      updateSettings: (body: Settings): Promise<Settings> => answer(api.PUT("/workbench/api/sandbox/settings", { body })),
    },

    personas: {
      list: (): Promise<Persona[]> => answer(api.GET("/workbench/api/personas")),
      issue: (body: IssuePersona): Promise<Persona> => answer(api.POST("/workbench/api/personas", { body })),
      import: (body: ImportPersona): Promise<Persona> => answer(api.POST("/workbench/api/personas/import", { body })),
      update: (id: string, body: PersonaPatch): Promise<Persona> =>
        answer(api.PATCH("/workbench/api/personas/{id}", { params: { path: { id } }, body })),
      remove: (id: string): Promise<void> => answer(api.DELETE("/workbench/api/personas/{id}", { params: { path: { id } } })),
      certificate: (id: string): Promise<string> =>
        answer(api.GET("/workbench/api/personas/{id}/certificate", { params: { path: { id } }, ...AS_TEXT })),
      /** The certificate and key as a `--cert-dir` tar archive (plain ASCII, so text carries it byte for byte). */
      certDir: (id: string): Promise<string> =>
        answer(api.GET("/workbench/api/personas/{id}/cert-dir", { params: { path: { id } }, ...AS_TEXT })),
    },

    /** The currency codes the sandbox accepts, with their minor units. */
    currencies: (): Promise<CurrencyInfo[]> => answer(api.GET("/workbench/api/currencies")),

    // openapi-fetch's answer type (its Readable<>) turns the document's tuples, the `[name, value]` headers,
    // into plain arrays; the assertions name the document's own schemas again.
    compose: {
      operations: () => answer(api.GET("/workbench/api/operations")) as Promise<Operation[]>,
      preview: (body: Draft) => answer(api.POST("/workbench/api/compose/preview", { body })) as Promise<Preview>,
      send: (body: Draft) => answer(api.POST("/workbench/api/compose/send", { body })) as Promise<Sent>,
      history: (): Promise<HistoryEntry[]> => answer(api.GET("/workbench/api/compose/history")),
      historyEntry: (id: string) =>
        answer(api.GET("/workbench/api/compose/history/{id}", { params: { path: { id } } })) as Promise<Sent>,
      export: (draft: Draft, format: ExportFormat): Promise<ExportAnswer> =>
        answer(api.POST("/workbench/api/compose/export", { body: { draft, format } })),
    },

    sca: {
      callbacks: (): Promise<Callback[]> => answer(api.GET("/workbench/api/sca/callbacks")),
      /** The authorisations not finished yet, newest first. */
      pending: (): Promise<PendingAuthorisation[]> => answer(api.GET("/workbench/api/sca/pending")),
      /** The PSU's browser: a page of the bank's SCA asked for, or one of its forms sent. */
      page: (body: PageRequest): Promise<PageVisit> => answer(api.POST("/workbench/api/sca/page", { body })),
      /** The authorisations finished lately, with where each sent the PSU, newest first. */
      finished: () => answer(api.GET("/workbench/api/sca/finished")) as Promise<FinishedAuthorisation[]>,
    },

    /** The signed-request gate's steps and the headers it signs and requires, as the verifier has them. */
    gate: (): Promise<GateDefinition> => answer(api.GET("/workbench/api/gate")),
    /** The gate's verdict on a pasted curl command or raw HTTP request (`xs2a-sandbox verify`'s). */
    verify: (request: string, at?: string) =>
      answer(api.POST("/workbench/api/verify", { body: at ? { request, at } : { request } })) as Promise<PastedVerdict>,

    fixtures: {
      /** The whole state as a state file (docs/fixtures.md), as text to save unchanged. */
      exportState: (): Promise<string> => answer(api.GET("/workbench/api/state", AS_TEXT)),
      /**
       * What importing a state file would change (`preview`), or the import itself. The file goes as the
       * user chose it, not parsed here: the service says what is wrong with it, at the field.
       */
      importState: (file: string, mode: StateMode, preview: boolean): Promise<ImportOutcome> =>
        answer(
          api.POST("/workbench/api/state", {
            params: { query: { mode, preview: preview || undefined } },
            body: file as unknown as components["schemas"]["StateFile"],
            ...AS_IS,
          }),
        ),
      snapshots: (): Promise<Snapshot[]> => answer(api.GET("/workbench/api/snapshots")),
      takeSnapshot: (name: string): Promise<Snapshot> =>
        answer(api.PUT("/workbench/api/snapshots/{name}", { params: { path: { name } } })),
      snapshotFile: (name: string): Promise<string> =>
        answer(api.GET("/workbench/api/snapshots/{name}", { params: { path: { name } }, ...AS_TEXT })),
      restoreSnapshot: (name: string): Promise<ImportOutcome> =>
        answer(api.POST("/workbench/api/snapshots/{name}/restore", { params: { path: { name } } })),
      deleteSnapshot: (name: string): Promise<void> =>
        answer(api.DELETE("/workbench/api/snapshots/{name}", { params: { path: { name } } })),
      /** Everything served since the snapshot, as a flow whose `state` names `state` (the state file's name). */
      snapshotFlow: (name: string, state?: string): Promise<string> =>
        answer(
          api.GET("/workbench/api/snapshots/{name}/flow", { params: { path: { name }, query: { state } }, ...AS_TEXT }),
        ),
      /** A journey of the traffic log as a flow whose `state` names `state` (the state file's name). */
      journeyFlow: (id: string, state?: string): Promise<string> =>
        answer(api.GET("/workbench/api/journeys/{id}/flow", { params: { path: { id }, query: { state } }, ...AS_TEXT })),
    },

    /** Production rehearsal (docs/rehearsal.md): the profile, the fault plan, the central register. */
    rehearsal: {
      profile: (): Promise<ProfileSetting> => answer(api.GET("/workbench/api/profile")),
      setProfile: (body: ProfileSetting): Promise<ProfileSetting> => answer(api.PUT("/workbench/api/profile", { body })),
      faults: (): Promise<Plan> => answer(api.GET("/workbench/api/faults")),
      presets: (): Promise<Preset[]> => answer(api.GET("/workbench/api/faults/presets")),
      addRule: (body: Rule): Promise<Plan> => answer(api.POST("/workbench/api/faults/rules", { body })),
      setRuleEnabled: (id: string, enabled: boolean): Promise<Plan> =>
        answer(api.PATCH("/workbench/api/faults/rules/{id}", { params: { path: { id } }, body: { enabled } })),
      deleteRule: (id: string): Promise<Plan> =>
        answer(api.DELETE("/workbench/api/faults/rules/{id}", { params: { path: { id } } })),
      register: (): Promise<RegisteredTpp[]> => answer(api.GET("/workbench/api/register")),
      changeRegister: (organisationId: string, body: RegisterChange): Promise<RegisteredTpp> =>
        answer(api.PATCH("/workbench/api/register/{organisationId}", { params: { path: { organisationId } }, body })),
    },

    traffic: {
      page: (filter: TrafficFilter, before?: number | null, limit?: number, signal?: AbortSignal) =>
        answer(
          api.GET("/workbench/api/traffic", {
            params: { query: trafficQuery(filter, before, limit) },
            ...(signal ? { signal } : {}),
          }),
        ) as Promise<TrafficPage>,
      /** An exchange whole, or the event entry. */
      entry: (id: number) =>
        answer(api.GET("/workbench/api/traffic/{id}", { params: { path: { id: String(id) } } })) as Promise<Exchange | Entry>,
      har: (id: number): Promise<unknown> => answer(api.GET("/workbench/api/traffic/{id}/har", { params: { path: { id: String(id) } } })),
      streamUrl: () => t.url("/workbench/api/traffic/stream", true),
      journeys: (limit = 50): Promise<Journey[]> =>
        answer(api.GET("/workbench/api/journeys", { params: { query: { limit } } })),
      journey: (id: string) =>
        answer(api.GET("/workbench/api/journeys/{id}", { params: { path: { id } } })) as Promise<JourneyEntries>,
      /** Empties the log (on disk when it answers); `traffic.cleared` follows on the events. */
      clear: (): Promise<TrafficCleared> => answer(api.DELETE("/workbench/api/traffic")),
      settings: (): Promise<TrafficSettings> => answer(api.GET("/workbench/api/traffic/settings")),
      updateSettings: (body: TrafficSettings): Promise<TrafficSettings> =>
        answer(api.PUT("/workbench/api/traffic/settings", { body })),
    },

    /** docs/rewind.md: what an entry changed, the state at an entry, the sandbox returned to it. */
    rewind: {
      changes: (id: number): Promise<EntryChanges> =>
        answer(api.GET("/workbench/api/traffic/{id}/changes", { params: { path: { id: String(id) } } })),
      /** What `to` would undo now (nothing applied): the confirmation says it before anyone rewinds. */
      preview: (to: number, position: Position): Promise<RewindPreview> =>
        answer(api.GET("/workbench/api/rewind/preview", { params: { query: { to, position } } })),
      to: (to: number, position: Position): Promise<Rewound> =>
        answer(api.POST("/workbench/api/rewind", { body: { to, position } })),
      /** The state file of the state before or after entry `id`. */
      stateAt: (id: number, position: Position): Promise<string> =>
        answer(api.GET("/workbench/api/state/at/{id}", { params: { path: { id: String(id) }, query: { position } }, ...AS_TEXT })),
      compare: (a: number, b: number, aPosition: Position = "after", bPosition: Position = "after"): Promise<Comparison> =>
        answer(api.GET("/workbench/api/state/compare", { params: { query: { a, b, aPosition, bPosition } } })),
      /** What a restart from `from` would play again and what not, nothing changed. */
      restartPlan: (id: string, from: number): Promise<Restart> =>
        answer(api.GET("/workbench/api/journeys/{id}/restart", { params: { path: { id }, query: { from } } })),
      restart: (id: string, from: number, paceMs?: number): Promise<Restart> =>
        answer(
          api.POST("/workbench/api/journeys/{id}/restart", {
            params: { path: { id } },
            body: paceMs === undefined ? { from } : { from, paceMs },
          }),
        ),
    },

    conformance: {
      /** The TPPs the traffic log has seen, most recently active first. */
      tpps: (): Promise<ConformanceTppSeen[]> => answer(api.GET("/workbench/api/conformance/tpps")),
      report: (q: ConformanceReportQuery): Promise<ConformanceReport> =>
        answer(api.GET("/workbench/api/conformance", { params: { query: reportQuery(q) } })),
      /** The report as JUnit XML (one test case per rule), as text to save. */
      junit: (q: ConformanceReportQuery): Promise<string> =>
        answer(api.GET("/workbench/api/conformance/junit", { params: { query: reportQuery(q) }, ...AS_TEXT })),
      /** The report as self-contained HTML, as text to save. */
      html: (q: ConformanceReportQuery): Promise<string> =>
        answer(api.GET("/workbench/api/conformance/html", { params: { query: reportQuery(q) }, ...AS_TEXT })),
    },
  };
}

export type Client = ReturnType<typeof createClient>;
