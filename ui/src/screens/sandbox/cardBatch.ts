// Card transactions made up in bulk for a mock card account. The service generates account transactions
// itself (`…/transactions/generate`) but has no such operation for card accounts, so the workbench makes the
// batch here and stores it with the documented `POST …/card-accounts/{id}/transactions` (one batch, stored
// whole or refused whole): purchases of 20.00–2,000.00 (negative, as the seeded card transactions are) at
// everyday merchant categories, spread over the range, booked on their date.
import type { CardTransactionInput, GenerateTransactions } from "../../api/types";
import { addDays } from "../../lib/format";

/** Everyday merchant category codes: groceries, restaurants, fuel, pharmacies, transport, clothing. */
const MERCHANT_CATEGORIES = ["5411", "5812", "5541", "5912", "4111", "5651"] as const;

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** `count` booked card transactions between the dates (both included), in date order. */
export function cardTransactionBatch(
  request: GenerateTransactions,
  currency: string,
  random: () => number = Math.random,
): CardTransactionInput[] {
  const span = Math.max(0, daysBetween(request.fromDate, request.toDate));
  return Array.from({ length: request.count }, (_, i) => {
    const date = addDays(request.fromDate, request.count > 1 ? Math.round((span * i) / (request.count - 1)) : 0);
    const minor = 2_000 + Math.floor(random() * 198_000);
    return {
      transactionAmount: { amount: (-minor / 100).toFixed(2), currency },
      transactionDate: date,
      bookingDate: date,
      status: "booked",
      merchantCategoryCode: MERCHANT_CATEGORIES[Math.floor(random() * MERCHANT_CATEGORIES.length)] ?? "5411",
    };
  });
}
