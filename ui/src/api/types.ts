// Every wire type of the workbench API (docs/workbench-api.md) and the sandbox bodies it mirrors.
// The one place these are written: they are to be generated from the service's OpenAPI document later,
// so nothing else in the UI declares the shape of a request or an answer.

// ---------------------------------------------------------------------------------------------------
// Errors

export type MessageCategory = "ERROR" | "WARNING";

/** One entry of the bank's error shape; `path` is the JSON path (or header, or query parameter) at fault. */
export interface TppMessage {
  category: MessageCategory;
  code: string;
  path?: string | null;
  text?: string | null;
}

export interface TppMessages {
  tppMessages: TppMessage[];
}

// ---------------------------------------------------------------------------------------------------
// Desktop shell hand-over and native commands

export interface WorkbenchHandOver {
  baseUrl: string;
  token: string;
  desktop: boolean;
}

export interface OpenFileResult {
  path: string;
  contents: string;
}

// ---------------------------------------------------------------------------------------------------
// Session and clock

export type ClockMode = "real" | "shifted" | "frozen";

/** `GET /workbench/api/sandbox/clock` and `clock` events; `offsetSeconds` only on the sandbox endpoint. */
export interface ClockReading {
  now: string;
  mode: ClockMode;
  offsetSeconds?: number;
}

/** `PUT .../sandbox/clock`: exactly one of the three. */
export type ClockChange = { now: string } | { advance: string } | { mode: "real" | "frozen" };

export interface Session {
  version: string;
  baseUrl: string;
  mode: "loopback" | "shared";
  dataDir: string | null;
  callbackUrl: string;
  clock: ClockReading;
}

// ---------------------------------------------------------------------------------------------------
// Live events

export type PaymentStatus =
  | "RCVD"
  | "PDNG"
  | "ACTC"
  | "ACCP"
  | "ACWC"
  | "ACWP"
  | "ACSP"
  | "ACSC"
  | "RJCT"
  | "CANC"
  | "PART";

export interface PaymentStatusEvent {
  paymentId: string;
  before: PaymentStatus;
  after: PaymentStatus;
  reason?: string | null;
  fundsAvailable?: boolean | null;
  batchRunId?: string | null;
}

export type BatchTrigger = "Scheduled" | "Manual";

export interface BatchRunEvent {
  id: string;
  at: string;
  trigger: BatchTrigger;
  lastOfDay: boolean;
  processed: number;
  statuses: Partial<Record<PaymentStatus, number>>;
}

export interface BatchProgressEvent {
  runId: string;
  done: number;
  total: number;
}

export type SandboxArea = "customers" | "accounts" | "cardAccounts" | "transactions" | "agreements" | "all";

export interface SandboxChangedEvent {
  what: SandboxArea;
}

export interface ScaStepEvent {
  authorisationId: string;
  step: string;
  tppId: string;
}

export interface PersonaChangedEvent {
  id: string;
}

/** The `/v1` stream's notice that a listener fell behind; the workbench stream may send it too. */
export interface LaggedEvent {
  missed: number;
}

export interface EventDataByKind {
  "payment.status": PaymentStatusEvent;
  "batch.run": BatchRunEvent;
  "batch.progress": BatchProgressEvent;
  clock: ClockReading;
  "sandbox.changed": SandboxChangedEvent;
  "sca.step": ScaStepEvent;
  "sca.callback": Callback;
  "persona.changed": PersonaChangedEvent;
  lagged: LaggedEvent;
}

export type EventKind = keyof EventDataByKind;

/** The `data:` line of every event. */
export interface WorkbenchEvent<K extends EventKind = EventKind> {
  kind: K;
  at: string;
  data: EventDataByKind[K];
}

// ---------------------------------------------------------------------------------------------------
// Sandbox data: customers

export type CustomerType = "private" | "corporate";

export interface Customer {
  id: string;
  customerNumber: string;
  name: string;
  type: CustomerType;
}

export interface AccountSummary {
  id: string;
  bban: string;
  iban: string;
  currency: string;
  name: string;
  cashAccountType: string;
}

export interface CardAccountSummary {
  id: string;
  maskedPan: string;
  currency: string;
  name: string;
}

/** `GET .../sandbox/customers`: a customer with their accounts and card accounts. */
export interface CustomerView extends Customer {
  accounts: AccountSummary[];
  cardAccounts: CardAccountSummary[];
}

export interface CreateCustomer {
  customerNumber: string;
  name: string;
  type: CustomerType;
}

export interface UpdateCustomer {
  name: string;
}

export interface InitSummary {
  customers: number;
  privateCustomers: number;
  corporateCustomers: number;
  accounts: number;
  cardAccounts: number;
  transactions: number;
  cardTransactions: number;
  agreements: number;
  referenceDate: string;
}

// ---------------------------------------------------------------------------------------------------
// Sandbox data: accounts and card accounts

export type BalanceType =
  | "closingBooked"
  | "expected"
  | "openingBooked"
  | "interimAvailable"
  | "interimBooked"
  | "forwardAvailable"
  | "nonInvoiced";

export const BALANCE_TYPES: readonly BalanceType[] = [
  "closingBooked",
  "expected",
  "openingBooked",
  "interimAvailable",
  "interimBooked",
  "forwardAvailable",
  "nonInvoiced",
];

export type AccountStatus = "enabled" | "deleted" | "blocked";

export const ACCOUNT_STATUSES: readonly AccountStatus[] = ["enabled", "blocked", "deleted"];

/** An `{amount, currency}` object; amounts are decimal strings. */
export interface Amount {
  amount: string;
  currency: string;
}

export interface Balance {
  balanceType: BalanceType;
  balanceAmount: Amount;
  creditLimitIncluded?: boolean;
  referenceDate?: string;
}

/** The body of `POST .../sandbox/accounts` and `PUT .../sandbox/accounts/{id}`. */
export interface AccountBody {
  customerNumber: string;
  accountName: string;
  bban: string;
  iban?: string;
  currency?: string;
  product?: string;
  cashAccountType?: string;
  status?: AccountStatus;
  creditLine?: Amount;
  balances?: Balance[];
}

export interface Account {
  id: string;
  resourceId: string;
  customerNumber: string;
  ownerName: string;
  bban: string;
  iban: string;
  currency: string;
  name: string;
  product: string;
  cashAccountType: string;
  status: AccountStatus;
  usage: "PRIV" | "ORGA";
  creditLine?: Amount;
  balances: Balance[];
}

/** The body of `POST .../sandbox/card-accounts` and `PUT .../sandbox/card-accounts/{id}`. */
export interface CardAccountBody {
  customerNumber: string;
  maskedPan: string;
  currency?: string;
  creditLimit?: Amount;
  balances?: Balance[];
  name?: string;
  product?: string;
  status?: AccountStatus;
  relatedAccount?: string;
}

export interface CardAccount {
  id: string;
  resourceId: string;
  customerNumber: string;
  ownerName: string;
  maskedPan: string;
  currency: string;
  name: string;
  product: string;
  status: AccountStatus;
  usage: "PRIV" | "ORGA";
  creditLimit?: Amount;
  relatedAccount?: string;
  balances: Balance[];
}

/** ISO 20022 ExternalCashAccountType1Code values the service accepts (src/sandbox/input.rs). */
export const CASH_ACCOUNT_TYPES: readonly string[] = [
  "CACC", "CARD", "CASH", "CHAR", "CISH", "COMM", "CPAC", "LLSV", "LOAN", "MGLD", "MOMA", "NFCA",
  "NREX", "ODFT", "ONDP", "OTHR", "SACC", "SLRY", "SVGS", "TAXE", "TRAN", "TRAS", "VACC",
];

// ---------------------------------------------------------------------------------------------------
// Sandbox data: transactions

export interface AccountRef {
  iban?: string;
  bban?: string;
}

/** One item of `POST .../accounts/{id}/transactions`. `amount`: integer minor units or a decimal string. */
export interface TransactionInput {
  amount: number | string;
  currency: string;
  bookingDate: string;
  valueDate?: string;
  remittanceInformationUnstructured?: string;
  creditorName?: string;
  creditorAccount?: AccountRef;
  debtorName?: string;
  debtorAccount?: AccountRef;
  bankTransactionCode?: string;
  ultimateDebtor?: string;
  ultimateCreditor?: string;
  purposeCode?: string;
}

export interface Link {
  href: string;
  verbs?: string[];
}

export interface Transaction {
  id: string;
  /** Integer minor units (`-12550` is -125.50 NOK). */
  amount: number;
  currency: string;
  valueDate: string;
  bookingDate: string;
  remittanceInformationUnstructured: string;
  creditorName: string;
  creditorAccount: AccountRef;
  debtorName: string;
  debtorAccount: AccountRef;
  bankTransactionCode: string;
  ultimateDebtor: string;
  ultimateCreditor: string;
  purposeCode: string;
  _links?: { self: Link };
}

export interface CardAmountInput {
  amount: number | string;
  currency: string;
}

export type CardTransactionStatus = "booked" | "pending";

/** One item of `POST .../card-accounts/{id}/transactions`. */
export interface CardTransactionInput {
  transactionAmount: CardAmountInput;
  transactionDate: string;
  cardTransactionId?: string;
  bookingDate?: string;
  originalAmount?: CardAmountInput;
  merchantCategoryCode?: string;
  status?: CardTransactionStatus;
}

export interface MinorAmount {
  currency: string;
  amount: number;
}

export interface CardTransaction {
  cardTransactionId: string;
  status?: CardTransactionStatus;
  bookingDate?: string;
  transactionDate: string;
  transactionAmount: MinorAmount;
  originalAmount: MinorAmount;
  merchantCategoryCode: string;
}

/** `GET .../card-accounts/{id}/transactions` (SPEC.md operation 5). */
export interface CardTransactionList {
  cardAccount: { maskedPan: string };
  cardTransactions: { booked: CardTransaction[]; pending: string[] };
}

/** `POST .../transactions/generate`. Dates `YYYY-MM-DD`. */
export interface GenerateTransactions {
  count: number;
  fromDate: string;
  toDate: string;
}

export interface Generated {
  created: number;
}

// ---------------------------------------------------------------------------------------------------
// Sandbox data: agreements

export type EngagementRole = "VIEW" | "REGISTER" | "APPROVE";

export const ENGAGEMENT_ROLES: readonly EngagementRole[] = ["VIEW", "REGISTER", "APPROVE"];

export interface EngagementInput {
  /** The person's national identity number. */
  customer: string;
  account: AccountRef;
  roles: EngagementRole[];
}

export interface AgreementBody {
  /** The corporation's organisation number. */
  owner: string;
  name: string;
  engagements: EngagementInput[];
}

export interface Engagement {
  customer: string;
  customerName: string;
  account: { id: string; iban: string; bban: string };
  roles: EngagementRole[];
}

export interface Agreement {
  id: string;
  owner: string;
  ownerName: string;
  name: string;
  engagements: Engagement[];
}

// ---------------------------------------------------------------------------------------------------
// Batch runs and payments

export interface BatchOutcome {
  paymentId: string;
  before: PaymentStatus;
  after: PaymentStatus;
  reason?: string;
  fundsAvailable?: boolean;
}

export interface BatchRun {
  id: string;
  at: string;
  trigger: BatchTrigger;
  lastOfDay: boolean;
  processed: number;
  outcomes: BatchOutcome[];
}

export interface BatchRuns {
  runs: BatchRun[];
  scheduled: string[];
}

export type ForcedOutcome = "RJCT" | "ACCP" | "PDNG" | "PART";

export const FORCED_OUTCOMES: readonly ForcedOutcome[] = ["RJCT", "ACCP", "PDNG", "PART"];

export interface PaymentSummary {
  paymentId: string;
  product: string;
  service: string;
  status: PaymentStatus;
  amount: string;
  currency: string;
  debtor: string;
  creditorName: string;
  createdAt: string;
  authorisedAt?: string | null;
  fundsAvailable?: boolean | null;
  forcedOutcome?: ForcedOutcome | null;
  tppId: string;
}

export interface ForcedOutcomeBody {
  outcome: ForcedOutcome | null;
}

export interface ForcedOutcomeAnswer {
  paymentId: string;
  forcedOutcome: ForcedOutcome | null;
  transactionStatus: PaymentStatus;
}

export interface Settings {
  reproduceDomesticReadBeforeApprovalIssue: boolean;
}

// ---------------------------------------------------------------------------------------------------
// TPP personas

export type Psd2Role = "PSP_AS" | "PSP_PI" | "PSP_AI" | "PSP_IC";

export const PSD2_ROLES: readonly Psd2Role[] = ["PSP_AI", "PSP_PI", "PSP_AS", "PSP_IC"];

export type PersonaSource = "bundled" | "issued" | "imported";

export type PersonaStatus = "valid" | "expired" | "not-yet-valid" | "untrusted" | "no-roles";

export interface Persona {
  id: string;
  name: string;
  source: PersonaSource;
  roles: Psd2Role[];
  organisationId: string;
  subject: string;
  issuer: string;
  serial: string;
  notBefore: string;
  notAfter: string;
  status: PersonaStatus;
  problem: string | null;
  psuId: string | null;
  psuCorporateId: string | null;
  tppSessionId: string | null;
}

export interface IssuePersona {
  name: string;
  roles: Psd2Role[];
  days?: number;
  organisationId?: string;
  validFrom?: string;
  expired?: boolean;
  untrusted?: boolean;
}

export interface ImportPersona {
  name: string;
  certificatePem: string;
  privateKeyPem: string;
}

/** `PATCH /workbench/api/personas/{id}`; `null` clears a field. */
export interface PersonaPatch {
  name?: string;
  psuId?: string | null;
  psuCorporateId?: string | null;
  tppSessionId?: string | null;
}

// ---------------------------------------------------------------------------------------------------
// Composer

/** A header as the workbench writes it: `[name, value]`. */
export type Header = [string, string];

export interface Draft {
  personaId: string;
  method: string;
  /** Relative to the base URL, e.g. `/v1/accounts`. */
  path: string;
  /** The query string without `?`. */
  query?: string;
  headers: Header[];
  body?: string;
}

export interface Preview {
  url: string;
  headers: Header[];
  signedHeaders: string[];
  signingString: string;
  digest?: string | null;
}

export interface SentRequest {
  method: string;
  url: string;
  headers: Header[];
  body?: string | null;
}

export interface SentResponse {
  status: number;
  headers: Header[];
  body: string;
}

export interface Sent {
  id: string;
  at: string;
  draft: Draft;
  request: SentRequest;
  signingString: string;
  response: SentResponse;
  durationMs: number;
  exchangeId?: string | null;
}

export interface HistoryEntry {
  id: string;
  at: string;
  personaId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

export type ExportFormat = "curl" | "script";

export interface ExportRequest {
  draft: Draft;
  format: ExportFormat;
}

export interface ExportAnswer {
  text: string;
}

export type OperationGroup = "Consent" | "Accounts" | "Payments" | "Baskets" | "Authorisations" | "Sandbox";

export interface PathParam {
  name: string;
  description: string;
  source?: string | null;
}

export interface QueryParam {
  name: string;
  value: string;
  required: boolean;
}

export interface Operation {
  id: string;
  group: OperationGroup;
  name: string;
  method: string;
  path: string;
  pathParams: PathParam[];
  query: QueryParam[];
  headers: Header[];
  body?: string | null;
  role: "PSP_AI" | "PSP_PI" | null;
  description: string;
}

// ---------------------------------------------------------------------------------------------------
// SCA

export interface Callback {
  id: string;
  at: string;
  personaId?: string | null;
  outcome: "success" | "failure";
  psuId?: string | null;
  psuCorporateId?: string | null;
  context?: string | null;
  tppSessionId?: string | null;
  system?: string | null;
  status?: string | null;
  code?: string | null;
  message?: string | null;
  query: Record<string, string>;
}
