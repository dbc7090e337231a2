/**
 * User management and My Profile & Settings in the browser: an admin creates a user with a
 * start page and module access (the password policy shown live, a weak password refused), the
 * new user logs in through the real login page and lands on that start page, and a profile
 * change stays after a reload. Screenshots go to /tmp/users/.
 */
import { expect, test } from "@playwright/test";
import { type Account, ACCOUNTS, login, shot } from "./helpers.ts";

const NEW_USER = {
  name: "Greta Gridwatcher",
  email: "greta.g@demo-ew.ch",
  password: "Blue-Kettle-42-Moss",
};

// login() types its argument as a demo account; it reads only the e-mail and the password.
const GRETA = { ...NEW_USER, startPage: "/grid-monitoring" } as unknown as Account;

test.describe.configure({ mode: "serial" });

test("an admin creates a user with a start page and module access; a weak password is refused", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await login(page, ACCOUNTS.admin);
  await page.goto("/user-management");
  await expect(page.getByRole("heading", { level: 1, name: "User Management" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Anna Admin" })).toBeVisible();
  await expect(page.getByText("1–5 of 5")).toBeVisible();
  await shot(page, "list", { fullPage: true });

  await page.getByRole("searchbox", { name: "Search users" }).fill("otto");
  await expect(page).toHaveURL(/search=otto/);
  await expect(page.getByRole("link", { name: "Otto Operator" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Anna Admin" })).toHaveCount(0);
  await page.getByRole("searchbox", { name: "Search users" }).fill("");
  await expect(page.getByRole("link", { name: "Anna Admin" })).toBeVisible();

  await page.getByRole("button", { name: "New user" }).click();
  const dialog = page.getByRole("dialog", { name: "New user" });
  await dialog.getByLabel("Full name").fill(NEW_USER.name);
  await dialog.getByLabel("Email").fill(NEW_USER.email);
  await dialog.getByLabel("Mobile number").fill("079 555 12 34");
  await dialog.getByLabel("Access to Metering Information").selectOption("user");
  await dialog.getByLabel("Access to Grid Monitoring").selectOption("user");
  await dialog.getByLabel("Start page").selectOption("/grid-monitoring");

  // A weak password: 601 appears live under the password, in the catalogue's words with the
  // code in small print, once, and still once after the refused submit.
  const weak = dialog.getByText("The password is too weak.");
  await dialog.getByLabel("Password", { exact: true }).fill("Abc1!");
  await expect(weak).toHaveCount(1);
  await expect(weak.locator("small")).toHaveText("(601)");
  await expect(dialog.getByText("The password breaks a security rule.")).toHaveCount(0);
  await dialog.getByLabel("Password", { exact: true }).fill("Abcdefg1!");
  await dialog.getByLabel("Confirm password").fill("Abcdefg1!");
  await expect(weak).toHaveCount(1);
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog).toBeVisible();
  await expect(weak).toHaveCount(1);
  await expect(dialog.getByLabel("Password", { exact: true })).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await shot(page, "create-weak-password", { fullPage: true });

  await dialog.getByLabel("Password", { exact: true }).fill(NEW_USER.password);
  await dialog.getByLabel("Confirm password").fill("Blue-Kettle-42-Mos");
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog.getByText("The passwords do not match.")).toBeVisible();
  await dialog.getByLabel("Confirm password").fill(NEW_USER.password);
  await expect(dialog.getByRole("meter", { name: "Password strength" })).toHaveAttribute(
    "aria-valuenow",
    "4",
  );
  await shot(page, "create-filled", { fullPage: true });
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${NEW_USER.name} was created.`).first()).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(NEW_USER.name) });
  await expect(row).toContainText("/grid-monitoring");
  await expect(row).toContainText("Never");
  await expect(row).toContainText("Active");

  await row.getByRole("link", { name: NEW_USER.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: NEW_USER.name })).toBeVisible();
  await expect(page.getByLabel("Mobile number")).toHaveValue("+41 79 555 12 34");
  await expect(page.getByLabel("Access to Grid Monitoring")).toHaveValue("user");
  await expect(page.getByLabel("Access to Power Quality")).toHaveValue("");
  await shot(page, "detail", { fullPage: true });
});

test("the new user logs in through the login page and lands on the assigned start page", async ({ page }) => {
  await login(page, GRETA);
  await expect(page).toHaveURL(/\/grid-monitoring(\?|$)/);
  await expect(page.getByRole("heading", { level: 1, name: "Grid Monitoring" })).toBeVisible();
});

test("a profile change (phone, language) is visible after a reload", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1000 });
  await login(page, GRETA);
  await page.goto("/user-settings");
  const profile = page.getByRole("region", { name: "Profile" });
  await expect(profile.getByText("Not validated: email notifications stay off")).toBeVisible();
  await profile.getByLabel("Mobile number").fill("+33 6 12 34 56 78");
  await profile.getByLabel("Start page").selectOption("/metering-information");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Your profile was saved.").first()).toBeVisible();
  await profile.getByRole("button", { name: "Send validation email" }).click();
  await expect(profile.getByText(/We sent a validation link to greta\.g@demo-ew\.ch/))
    .toBeVisible();
  await shot(page, "settings", { fullPage: true });

  await profile.getByLabel("Interface language").selectOption("fr");
  await expect(page.getByRole("heading", { level: 1, name: "Mon profil et paramètres" }))
    .toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Mon profil et paramètres" }))
    .toBeVisible();
  const profil = page.getByRole("region", { name: "Profil" });
  await expect(profil.getByLabel("Numéro de mobile")).toHaveValue("+33 6 12 34 56 78");
  await expect(profil.getByLabel("Page d'accueil")).toHaveValue("/metering-information");
  await shot(page, "settings-fr", { fullPage: true });

  await profil.getByLabel("Langue de l'interface").selectOption("en");
  await expect(page.getByRole("heading", { level: 1, name: "My Profile & Settings" }))
    .toBeVisible();
});

test("the password change shows the policy and refuses a common password", async ({ page }) => {
  await login(page, GRETA);
  await page.goto("/user-settings");
  const card = page.getByRole("region", { name: "Password" });
  await card.getByLabel("Current password").fill(NEW_USER.password);
  await card.getByLabel("New password").fill("Password1!");
  await card.getByLabel("Confirm password").fill("Password1!");
  await expect(card.getByText("The password is too common. (603)").first()).toBeVisible();
  await card.getByRole("button", { name: "Change password" }).click();
  await expect(card.getByRole("alert")).toContainText("The password is too common. (603)");
});

test("an admin disables, then deletes a user after the spec's confirmation", async ({ page }) => {
  await login(page, ACCOUNTS.admin);
  await page.goto("/user-management?search=greta");
  await page.getByRole("link", { name: NEW_USER.name }).click();
  await page.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByText("Disabled").first()).toBeVisible();
  await page.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText(
    "This action is irrecoverable, are you sure you want to delete?",
  );
  await shot(page, "delete-confirm", { fullPage: true });
  await confirm.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(page).toHaveURL(/\/user-management$/);
  await expect(page.getByRole("link", { name: NEW_USER.name })).toHaveCount(0);
});
