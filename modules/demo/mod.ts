/**
 * @module
 * The demo utility seeded on first start: a small Swiss distribution utility with a user per
 * role, and a second utility so that tenant isolation is visible. Demo passwords are fixed and
 * documented in README.md; set DEMO_SEED=false for a real installation.
 */
import type { CustomersService } from "../customers/mod.ts";
import type { CellOnboardingService, CellsService } from "../grid/mod.ts";
import type { Db, EventBus, Logger } from "../../kernel/mod.ts";
import type { UsersService } from "../users/mod.ts";
import { seedDemoGrid, seedOtherGrid } from "./grid.ts";
import { seedDemoIo } from "./io.ts";

export {
  backfill,
  demoSimCells,
  type DemoSimulationDeps,
  startDemoSimulation,
} from "./simulation.ts";
export { startFieldCellPolling } from "./field_cells.ts";

export const DEMO_CUSTOMER = "demo-ew";
export const OTHER_CUSTOMER = "sw-beispiel";

const MODULES = [
  "app:grid-metering",
  "app:grid-monitoring",
  "app:visual-statistics",
  "app:power-quality",
  "app:io-monitoring",
  "hes:data-export",
  "hes:infrastructure-setup",
  "hes:io-configuration",
  "hes:scada-connector",
];
const TOOLSET_ADMIN = ["hes:um:admin", "hes:cm:admin", "hes:api-clients:admin"];
const all = (role: string) => ["hes:default", ...MODULES.map((m) => `${m}:${role}`)];

/** The demo accounts (e-mail, password, role, start page) as README.md lists them. */
export const DEMO_USERS = [
  {
    email: "user@demo-ew.ch",
    password: "Demo-User-2026!",
    name: "Ursula User",
    role: "user",
    startPage: "/grid-monitoring",
    appsRoles: [
      "hes:default",
      "app:grid-metering:user",
      "app:grid-monitoring:user",
      "app:visual-statistics:user",
      "app:power-quality:user",
      "app:io-monitoring:user",
      "hes:data-export:user",
    ],
  },
  {
    email: "admin@demo-ew.ch",
    password: "Demo-Admin-2026!",
    name: "Anna Admin",
    role: "admin",
    startPage: "/infrastructure-setup",
    appsRoles: [...all("admin"), ...TOOLSET_ADMIN],
  },
  {
    email: "superuser@demo-ew.ch",
    password: "Demo-Super-2026!",
    name: "Simon Superuser",
    role: "super-user",
    startPage: "/grid-monitoring",
    appsRoles: all("user"),
  },
  {
    email: "superadmin@demo-ew.ch",
    password: "Demo-Root-2026!",
    name: "Sara Superadmin",
    role: "super-admin",
    startPage: "/global-settings",
    appsRoles: [...all("admin"), ...TOOLSET_ADMIN],
  },
  {
    email: "operator@demo-ew.ch",
    password: "Demo-Operator-2026!",
    name: "Otto Operator",
    role: "user",
    startPage: "/metering-information",
    appsRoles: ["hes:default", "app:grid-metering:user", "app:grid-monitoring:user"],
  },
] as const;

/** The other utility's administrator, for isolation checks. */
export const OTHER_ADMIN = {
  email: "admin@sw-beispiel.ch",
  password: "Other-Admin-2026!",
  name: "Bruno Beispiel",
} as const;

/** Seeds the demo utilities once (when no customer exists yet); returns whether it seeded. */
export async function seedDemo(
  deps: {
    db: Db;
    customers: CustomersService;
    users: UsersService;
    cells: CellsService;
    /** The registration service behind POST /gsm/cells: demo cells are registered like real ones. */
    onboarding: CellOnboardingService;
    logger: Logger;
    /** For the I/O configuration service (it publishes nothing while seeding). */
    bus: EventBus;
  },
): Promise<boolean> {
  if ((await deps.customers.count()) > 0) return false;
  await deps.customers.create({
    key: crypto.randomUUID(),
    authConnectionName: DEMO_CUSTOMER,
    name: "EW Demo AG",
    defaultLanguage: "en",
    availableLanguages: ["en", "fr", "de", "uk"],
    defaultMapZoomLevel: 12,
    defaultLvNominalVoltage: "230/400",
    defaultMvNominalVoltage: 16000,
    defaultFrequency: 50,
    defaultTimezone: "Europe/Zurich",
    defaultDateFormat: "DD.MM.YYYY",
    defaultTimeFormat: "HH:mm",
    defaultNumberFormat: "1'234.56",
    country: "CH",
    mapCenterLat: 47.0502,
    mapCenterLng: 8.3093,
    applications: MODULES,
    authorizedEmailDomains: ["demo-ew.ch"],
  });
  const other = await deps.customers.create({
    key: crypto.randomUUID(),
    authConnectionName: OTHER_CUSTOMER,
    name: "Stadtwerk Beispiel",
    defaultLanguage: "de",
    availableLanguages: ["de", "fr", "en"],
    defaultMapZoomLevel: 12,
    defaultLvNominalVoltage: "230/400",
    defaultMvNominalVoltage: 11000,
    defaultFrequency: 50,
    defaultTimezone: "Europe/Zurich",
    defaultDateFormat: "DD.MM.YYYY",
    defaultTimeFormat: "HH:mm",
    defaultNumberFormat: "1'234.56",
    country: "CH",
    mapCenterLat: 46.948,
    mapCenterLng: 7.4474,
    applications: ["app:grid-metering", "hes:data-export", "app:grid-monitoring"],
    authorizedEmailDomains: ["sw-beispiel.ch"],
  });
  const demo = (await deps.customers.getByConnection(DEMO_CUSTOMER))!;
  const demoCells = await seedDemoGrid(deps.db, deps.cells, deps.onboarding, demo.key);
  await seedDemoIo(deps.db, deps.bus, demo.key, demoCells.values());
  for (const u of DEMO_USERS) {
    await deps.users.create({
      customerKey: demo.key,
      email: u.email,
      name: u.name,
      role: u.role,
      password: u.password,
      appsRoles: [...u.appsRoles],
      startPage: u.startPage,
      appMetadata: { documentation: { key: "gridwatch" } },
    });
  }
  await seedOtherGrid(deps.db, other.key);
  await deps.users.create({
    customerKey: other.key,
    email: OTHER_ADMIN.email,
    name: OTHER_ADMIN.name,
    role: "admin",
    password: OTHER_ADMIN.password,
    appsRoles: [...all("admin"), ...TOOLSET_ADMIN],
    startPage: "/grid-monitoring",
    language: "de",
  });
  deps.logger.info("Demo utilities seeded (demo passwords, see README.md)", {
    accounts: [...DEMO_USERS, OTHER_ADMIN].map((u) => `${u.email} / ${u.password}`),
  });
  return true;
}
