// The pieces the account and card-account forms share: each names its own noun and field paths, and the
// buttons say whether the form creates or saves.
import { render, screen } from "@solidjs/testing-library";
import userEvent from "@testing-library/user-event";
import { createSignal } from "solid-js";
import { describe, expect, it, vi } from "vitest";
import { CreditFields, HoldingFormEnd, StatusField } from "./HoldingFields";

describe("the holding form pieces", () => {
  it("label a credit amount and its currency after the form's own name for it", async () => {
    const onAmount = vi.fn();
    render(() => (
      <CreditFields label="Credit limit" path="creditLimit" amount="" onAmount={onAmount} currency="NOK" onCurrency={() => {}} />
    ));
    await userEvent.setup().type(screen.getByLabelText("Credit limit"), "5");
    expect(onAmount).toHaveBeenLastCalledWith("5");
    expect(screen.getByLabelText("Credit limit currency")).toHaveValue("NOK");
  });

  it("offer the statuses with the service's default first", () => {
    render(() => <StatusField value="" onValue={() => {}} />);
    const options = [...screen.getByLabelText("Status").querySelectorAll("option")].map((o) => o.textContent);
    expect(options[0]).toBe("(default)");
    expect(options.length).toBeGreaterThan(1);
  });

  it("create a new one and save one being edited, and cancel either", async () => {
    const onCancel = vi.fn();
    const [editing, setEditing] = createSignal(false);
    render(() => (
      <HoldingFormEnd
        noun="card account"
        editing={editing()}
        busy={false}
        balances={[]}
        onBalances={() => {}}
        currency="NOK"
        onCancel={onCancel}
      />
    ));
    expect(screen.getByRole("button", { name: "Create card account" })).toHaveAttribute("type", "submit");
    setEditing(true);
    expect(screen.getByRole("button", { name: "Save card account" })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Cancel" }));
    expect(onCancel).toHaveBeenCalledOnce();
  });
});
