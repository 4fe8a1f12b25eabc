// Amounts as the sandbox's forms take them. The sandbox lists transactions in minor units (`-29803`, øre for
// NOK) while its forms take the amount as a decimal (`-298.03`); the list shows the form's way, with the
// currency's minor units from the service (`GET /workbench/api/currencies`, read once per client), so the UI
// keeps no currency table of its own.
import { createResource } from "solid-js";
import type { Client } from "../../api/client";
import { useWorkbench } from "../../app/context";

/** Minor units as a decimal with that many fraction digits: `-29803`, 2 → `-298.03`; `5`, 2 → `0.05`. */
export function decimalFromMinor(minor: number, minorUnits: number): string {
  const sign = minor < 0 ? "-" : "";
  const digits = Math.abs(Math.trunc(minor)).toString().padStart(minorUnits + 1, "0");
  return minorUnits === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -minorUnits)}.${digits.slice(-minorUnits)}`;
}

const read = new WeakMap<Client, Promise<ReadonlyMap<string, number>>>();

function minorUnitsOf(client: Client): Promise<ReadonlyMap<string, number>> {
  let known = read.get(client);
  if (!known) {
    known = client.currencies().then((list) => new Map(list.map((c) => [c.code, c.minorUnits])));
    // A failed read is tried again next time, not kept.
    known.catch(() => read.delete(client));
    read.set(client, known);
  }
  return known;
}

/** A formatter of minor-unit amounts for the current workbench; it gives "" until the currencies are read. */
export function createAmountFormat(): (minor: number, currency: string) => string {
  const wb = useWorkbench();
  const [units] = createResource(() => minorUnitsOf(wb.client));
  // Called from JSX, which tracks the resource it reads.
  // eslint-disable-next-line solid/reactivity
  return (minor, currency) => {
    const known = units.state === "ready" ? units() : undefined;
    const digits = known?.get(currency);
    return digits === undefined ? "" : decimalFromMinor(minor, digits);
  };
}
