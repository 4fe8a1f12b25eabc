// A typed client generated from the sandbox's OpenAPI document (openapi-typescript + openapi-fetch),
// calling one operation of each area. It is only compiled (check.mjs): a wrong path, parameter or
// field name here, or a document the generator cannot type, fails the build.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/sandbox";

const client = createClient<paths>({ baseUrl: "http://127.0.0.1:8080" });

const signed = {
  "X-Request-ID": "1b3c7e9a-2f4d-4c6e-8a0b-1d2e3f4a5b6c",
  Date: "Tue, 24 Nov 2026 10:00:00 GMT",
  Signature: 'keyId="...",algorithm="rsa-sha256",headers="date x-request-id",signature="..."',
  "TPP-Signature-Certificate": "MIIB...",
};

// The bank's sets B and P (docs/interface.md#payments) add what the sandbox requires of basket and payment requests.
const setBP = {
  ...signed,
  "PSU-ID": "8f4a2c1e-3b5d-4e6f-9a0b-1c2d3e4f5a6b",
  "PSU-IP-Address": "192.0.2.10",
  "TPP-Session-ID": "session-1",
  "TPP-Redirect-URI": "https://tpp.example/callback",
  "x-accept-fix": "",
};

export async function tour(): Promise<void> {
  const accounts = await client.GET("/v1/accounts", { params: { header: { ...signed, "PSU-ID": "x" } } });
  const names: string[] = (accounts.data?.accounts ?? []).map((a) => a.name);

  const created = await client.POST("/v1/{service}/{product}", {
    params: {
      path: { service: "payments", product: "instant-norwegian-domestic-credit-transfers-straks" },
      header: setBP,
    },
    body: {
      instructedAmount: { amount: "100.00", currency: "NOK" },
      creditorName: "Kari",
      creditorAccount: { bban: "12345678903", currency: "NOK" },
      creditorAddress: { country: "NO" },
      debtorAccount: { bban: "86011117947", currency: "NOK" },
    },
  });
  const paymentId: string | undefined = created.data?.paymentId;
  const refused: components["schemas"]["TppMessage"][] | undefined = created.error?.tppMessages;

  const basket = await client.POST("/v1/signing-baskets", {
    params: { header: setBP },
    body: { paymentIds: [paymentId ?? ""] },
  });
  const basketStatus: string | undefined = basket.data?.transactionStatus;

  const customers = await client.GET("/v1/sandbox/customers", { params: { header: signed } });
  const firstCustomer = customers.data?.[0];

  const page = await client.GET("/workbench/api/traffic", { params: { query: { failed: true, limit: 50 } } });
  const kinds = (page.data?.entries ?? []).map((e) => e.kind);

  const health = await client.GET("/health");
  console.log(names, refused, basketStatus, firstCustomer, kinds, health.data?.now);
}
