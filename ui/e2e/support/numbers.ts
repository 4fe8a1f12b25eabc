// Valid Norwegian test numbers for the end-to-end test: a synthetic national identity number (month + 80)
// and a BBAN, each with its mod-11 check digits, so the service accepts the customer and account made.

function mod11(digits: readonly number[], weights: readonly number[]): number | null {
  const sum = digits.reduce((acc, d, i) => acc + d * (weights[i] ?? 0), 0);
  const check = 11 - (sum % 11);
  return check === 11 ? 0 : check === 10 ? null : check;
}

const K1 = [3, 7, 6, 1, 8, 9, 4, 5, 2];
const K2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/** A synthetic birth number for 1 March 1990 (month 03 + 80 = 83): the first individual number that works. */
export function syntheticNationalId(start = 100): string {
  for (let individual = start; individual < 500; individual++) {
    const base = `018390${String(individual).padStart(3, "0")}`.split("").map(Number);
    const k1 = mod11(base, K1);
    if (k1 === null) continue;
    const k2 = mod11([...base, k1], K2);
    if (k2 === null) continue;
    return [...base, k1, k2].join("");
  }
  throw new Error("no synthetic national identity number found");
}

/** A BBAN in the sandbox bank's range (1205…) with a valid check digit. */
export function bban(start = 7_000_000): string {
  for (let n = start; n < start + 1000; n++) {
    const base = `120${String(n).padStart(7, "0")}`.split("").map(Number);
    const check = mod11(base, K2);
    if (check !== null) return [...base, check].join("");
  }
  throw new Error("no BBAN found");
}
