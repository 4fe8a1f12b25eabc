// The Sandbox data screen against the real service: initialise after a confirmation; customers made with
// the service's generators (fødselsnummer, D-number, organisation number) and renamed; accounts (a generated
// BBAN) and card accounts made and edited; transactions added one by one and generated in bulk; a corporate
// agreement. Every change shows in the lists, the dialogs and the notices with its new name.
import { expect, test } from "@playwright/test";
import type { Locator, Page } from "@playwright/test";
import { URL_WITH_TOKEN } from "./support/service";
import { show, snap } from "./support/workbench";

function sandbox(page: Page): Locator {
  return page.getByRole("tabpanel", { name: "Sandbox data", exact: true });
}

/** Makes a customer in the UI with a number from the generator button; answers the number. */
async function newCustomer(page: Page, type: "private" | "corporate", generator: string, name: string): Promise<string> {
  const panel = sandbox(page);
  await panel.getByRole("button", { name: "New customer", exact: true }).click();
  const form = panel.getByRole("form", { name: "New customer" });
  await form.getByLabel("Type", { exact: true }).selectOption(type);
  const label = type === "private" ? "National identity number" : "Organisation number";
  await form.getByRole("button", { name: generator }).click();
  const field = form.getByLabel(label, { exact: true });
  await expect(field).toHaveValue(type === "private" ? /^\d{11}$/ : /^\d{9}$/);
  const number = await field.inputValue();
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByRole("button", { name: "Create customer" }).click();
  await expect(panel.getByRole("article", { name: `Customer ${name}` })).toBeVisible();
  return number;
}

const notices = (page: Page) => page.getByRole("log", { name: "Notices" });

test.describe("sandbox data", () => {
  test("initialise after a confirmation; customers made with generated numbers; 1 card, not 1 cards", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Sandbox data");
    await panel.getByRole("button", { name: "Initialise / reset sandbox" }).click();
    await page.getByRole("dialog", { name: "Initialise the sandbox?" }).getByRole("button", { name: "Initialise", exact: true }).click();
    await expect(notices(page)).toContainText("Sandbox initialised");
    const list = panel.getByRole("list", { name: "Customers" });
    await expect(list.getByRole("button", { name: /Kari Nordmann/ })).toContainText("2 accounts · 1 card");
    await expect(list).not.toContainText("1 cards");
    await list.getByRole("button", { name: /Kari Nordmann/ }).click();
    await expect(panel.getByRole("article", { name: "Customer Kari Nordmann" })).toBeVisible();
    await snap(page, "1-sandbox-data");

    const stamp = Date.now() % 10_000;
    const birth = await newCustomer(page, "private", "Generate a fødselsnummer", `Frida Fødsel ${stamp}`);
    const d = await newCustomer(page, "private", "Generate a D-number", `Dag D-nummer ${stamp}`);
    expect(Number(d[0])).toBeGreaterThanOrEqual(4);
    expect(birth).not.toBe(d);
    await newCustomer(page, "corporate", "Generate an organisation number", `Org ${stamp} AS`);
  });

  test("rename a customer: the form, the list and the notice show the new name", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    await show(page, "Sandbox data");
    const name = `Rita Rename ${Date.now()}`;
    await newCustomer(page, "private", "Generate a fødselsnummer", name);
    const article = sandbox(page).getByRole("article", { name: `Customer ${name}` });
    await article.getByRole("button", { name: "Rename", exact: true }).click();
    const form = article.getByRole("form", { name: "Edit customer" });
    await expect(form.getByLabel("Name", { exact: true })).toHaveValue(name);
    const renamed = `${name} (renamed)`;
    await form.getByLabel("Name", { exact: true }).fill(renamed);
    await form.getByRole("button", { name: "Save customer" }).click();
    await expect(notices(page)).toContainText(`Customer ${renamed} saved`);
    await expect(sandbox(page).getByRole("article", { name: `Customer ${renamed}` })).toBeVisible();
    await expect(sandbox(page).getByRole("list", { name: "Customers" })).toContainText(renamed);
    await page.reload();
    await show(page, "Sandbox data");
    await expect(sandbox(page).getByRole("list", { name: "Customers" })).toContainText(renamed);
  });

  test("an account with a generated BBAN, edited; transactions one by one and in bulk", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    await show(page, "Sandbox data");
    const name = `Anna Account ${Date.now()}`;
    await newCustomer(page, "private", "Generate a fødselsnummer", name);
    const article = sandbox(page).getByRole("article", { name: `Customer ${name}` });
    await article.getByRole("button", { name: "New account", exact: true }).click();
    const form = article.getByRole("form", { name: "New account" });
    await form.getByLabel("Account name", { exact: true }).fill("Brukskonto");
    await form.getByRole("button", { name: "Generate a BBAN" }).click();
    await expect(form.getByLabel("BBAN", { exact: true })).toHaveValue(/^\d{11}$/);
    const bban = await form.getByLabel("BBAN", { exact: true }).inputValue();
    await form.getByRole("button", { name: "Add balance" }).click();
    await form.getByLabel("Balance 1 type", { exact: true }).selectOption("interimAvailable");
    await form.getByLabel("Balance 1 amount", { exact: true }).fill("2500.00");
    await form.getByRole("button", { name: "Create account" }).click();
    const accounts = article.getByRole("list", { name: "Accounts of this customer" });
    await expect(accounts).toContainText(bban);

    await accounts.getByRole("button", { name: `Edit account ${bban}` }).click();
    const edit = article.getByRole("form", { name: "Edit account" });
    await expect(edit.getByLabel("Account name", { exact: true })).toHaveValue("Brukskonto");
    await edit.getByLabel("Account name", { exact: true }).fill("Regningskonto");
    await edit.getByRole("button", { name: "Save account" }).click();
    await expect(notices(page)).toContainText(`Account “Regningskonto” (${bban}) saved`);
    await expect(accounts).toContainText("Regningskonto");

    await accounts.getByRole("button", { name: `Transactions of account ${bban}` }).click();
    const add = article.getByRole("form", { name: "Add a transaction" });
    await add.getByLabel("Amount", { exact: true }).fill("-125.50");
    await add.getByRole("button", { name: "Add transaction" }).click();
    await expect(article.getByRole("table", { name: /1 transaction\b/ })).toBeVisible();
    await article.getByRole("button", { name: "Generate transactions for every account" }).click();
    const generate = article.getByRole("form", { name: /Generate/ });
    await generate.getByLabel("Transactions per account", { exact: true }).fill("5");
    await generate.getByRole("button", { name: /Generate for every account/ }).click();
    await expect(notices(page)).toContainText("Made 5 transactions on 1 account");
  });

  test("a card account made and edited; card transactions one by one and in bulk", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Sandbox data");
    await panel.getByRole("list", { name: "Customers" }).getByRole("button", { name: /Per Hansen/ }).click();
    const article = panel.getByRole("article", { name: "Customer Per Hansen" });
    await article.getByRole("button", { name: "New card account", exact: true }).click();
    const form = article.getByRole("form", { name: "New card account" });
    const pan = `5555 55** **** ${String(Date.now()).slice(-4)}`;
    await form.getByLabel("Masked PAN", { exact: true }).fill(pan);
    await form.getByLabel("Card account name", { exact: true }).fill("Visa");
    await form.getByRole("button", { name: "Create card account" }).click();
    const cards = article.getByRole("list", { name: "Card accounts of this customer" });
    await expect(cards).toContainText(pan);
    await cards.getByRole("button", { name: `Edit card account ${pan}` }).last().click();
    const edit = article.getByRole("form", { name: "Edit card account" });
    await edit.getByLabel("Card account name", { exact: true }).fill("Visa Gold");
    await edit.getByRole("button", { name: "Save card account" }).click();
    await expect(notices(page)).toContainText(`Card account “Visa Gold” (${pan}) saved`);
    await expect(cards).toContainText("Visa Gold");

    await cards.getByRole("button", { name: `Transactions of card account ${pan}` }).last().click();
    const card = article.getByRole("region", { name: `Transactions of card ${pan}` });
    await card.getByRole("form", { name: "Add a card transaction" }).getByLabel("Amount", { exact: true }).fill("-99.90");
    await card.getByRole("form", { name: "Add a card transaction" }).getByRole("button", { name: "Add card transaction" }).click();
    await expect(card.getByRole("table", { name: /1 booked card transaction\b/ })).toBeVisible();
    const generate = card.getByRole("form", { name: /Generate/ });
    await generate.getByLabel("Number of transactions", { exact: true }).fill("3");
    await generate.getByRole("button", { name: "Generate", exact: true }).click();
    await expect(card.getByRole("table", { name: /4 booked card transactions/ })).toBeVisible();
  });

  test("a corporate agreement gives a person roles on the company's account", async ({ page }) => {
    await page.goto(URL_WITH_TOKEN);
    const panel = await show(page, "Sandbox data");
    await panel.getByRole("list", { name: "Customers" }).getByRole("button", { name: /Fjordkraft Testbedrift AS/ }).click();
    const article = panel.getByRole("article", { name: "Customer Fjordkraft Testbedrift AS" });
    await article.getByRole("button", { name: "New agreement", exact: true }).click();
    const form = article.getByRole("form", { name: "New agreement" });
    const name = `Avtale ${Date.now()}`;
    await form.getByLabel("Agreement name", { exact: true }).fill(name);
    if ((await form.getByLabel("Engagement 1 person (national identity number)").count()) === 0) {
      await form.getByRole("button", { name: "Add engagement" }).click();
    }
    await form.getByLabel("Engagement 1 person (national identity number)").fill("23879210003");
    await form.getByRole("group", { name: "Engagement 1 roles" }).getByRole("checkbox", { name: "VIEW" }).check();
    await form.getByRole("button", { name: /Create agreement/ }).click();
    await expect(article.getByRole("list", { name: "Corporate agreements" })).toContainText(name);
  });
});
