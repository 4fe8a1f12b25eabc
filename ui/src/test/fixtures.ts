// Answers for the unit tests, typed with the service's generated schemas (so a field the document requires
// cannot be left out) and shaped like the real service's (read from `xs2a-sandbox serve`): the fetch mock
// validates them against the document too.
import type { ExchangeSummary } from "../api/traffic";
import type { Account, CustomerView, Persona } from "../api/types";

/** A traffic log entry for an exchange: a plain 200 to an anonymous GET, `partial` laid over it. */
export function exchangeSummary(id: number, partial: Partial<ExchangeSummary> = {}): ExchangeSummary {
  return {
    id,
    kind: "exchange",
    at: "2026-06-01T12:00:00Z",
    durationMs: 1,
    method: "GET",
    path: "/v1/accounts",
    query: null,
    status: 200,
    area: "bank",
    source: "external",
    tpp: null,
    psuId: null,
    tppSessionId: null,
    failedStep: null,
    code: null,
    resources: [],
    journeys: [],
    ...partial,
  };
}

export function customerView(
  name: string,
  customerNumber: string,
  parts: Partial<Pick<CustomerView, "accounts" | "cardAccounts" | "type">> & { id?: string } = {},
): CustomerView {
  const id = parts.id ?? `c-${customerNumber}`;
  const type = parts.type ?? (customerNumber.length === 9 ? "corporate" : "private");
  return {
    id,
    customerId: id,
    customerNumber,
    customerName: name,
    name,
    customerType: type,
    type,
    accounts: parts.accounts ?? [],
    cardAccounts: parts.cardAccounts ?? [],
  };
}

export function account(parts: Partial<Account> & Pick<Account, "id" | "bban">): Account {
  return {
    resourceId: parts.id,
    customerNumber: "14838510036",
    ownerName: "Kari Nordmann",
    iban: `NO00${parts.bban}`,
    currency: "NOK",
    name: "Brukskonto",
    product: "Brukskonto",
    cashAccountType: "CACC",
    status: "enabled",
    usage: "PRIV",
    balances: [],
    ...parts,
  };
}

export function persona(parts: Partial<Persona> = {}): Persona {
  return {
    id: "bundled-aisp-pisp",
    name: "Sandbox AISP PISP AS",
    source: "bundled",
    roles: ["PSP_AI", "PSP_PI"],
    organisationId: "PSDNO-FSA-9C2C0A",
    subject: "CN=Sandbox AISP PISP AS,organizationIdentifier=PSDNO-FSA-9C2C0A,O=Sandbox AISP PISP AS,C=NO",
    issuer: "CN=xs2a-sandbox Test CA,O=xs2a-sandbox,C=NO",
    serial: "1B9121B636816684D82FBD41127364AB",
    certificateSha256: "E7:7A:7E:74:88:72:25:91:97:07:22:96:DA:BF:2C:36:10:ED:A0:3C:E2:E7:01:D5:B0:95:8D:D4:59:83:B1:93",
    notBefore: "2025-01-01T00:00:00Z",
    notAfter: "2045-01-01T00:00:00Z",
    status: "valid",
    problem: null,
    psuId: null,
    psuCorporateId: null,
    tppSessionId: "f4e76ff1-8e63-4ca2-a35e-0f69be2a1650",
    ...parts,
  };
}
