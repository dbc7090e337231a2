/** The mega menu model of spec 2.5, computed from the access guard. */
import { type AccessContext, type AccessDenial, denialReason, isAdminOf } from "./access.ts";
import { type AppPath, type ModuleId, MODULES } from "./modules.ts";

/** Why a mega-menu entry is greyed out: the access guard's reason, or a module not built yet. */
export type MenuDenial = AccessDenial | "not-built";

/** One entry of the mega menu. */
export interface MenuEntry {
  id: ModuleId;
  path: AppPath;
  /** `null` when the entry is clickable, else why it is greyed out. */
  denial: MenuDenial;
  /** The entry leads to a voltage page, so the current voltage is carried along. */
  carriesVoltage: boolean;
}

/** The three groups of the mega menu. */
export interface MegaMenuModel {
  toolset: MenuEntry[];
  dataExport: MenuEntry;
  modules: MenuEntry[];
}

const TOOLSET: readonly ModuleId[] = [
  "infrastructure-setup",
  "scada-connector",
  "user-management",
  "global-settings",
  "api-settings",
];
const SOFTWARE_MODULES: readonly ModuleId[] = [
  "metering-information",
  "grid-monitoring",
  "visual-statistics",
  "power-quality",
  "io-monitoring",
  "api-doc",
];

function entry(id: ModuleId, ctx: AccessContext): MenuEntry {
  const module = MODULES[id];
  return {
    id,
    path: module.path,
    denial: module.built ? denialReason(module.access, ctx) : "not-built",
    carriesVoltage: module.voltageSwitch,
  };
}

/**
 * Where the Global Settings icon leads: /global-settings for hes:cm admins, else the settings
 * page of a module the user administers (grid monitoring, then the API clients toolset).
 */
export function globalSettingsEntry(ctx: AccessContext): MenuEntry {
  const global = entry("global-settings", ctx);
  if (global.denial === null) return global;
  if (isAdminOf(ctx.appsRoles, MODULES["grid-monitoring-settings"].access.key)) {
    return { ...entry("grid-monitoring-settings", ctx), id: "global-settings" };
  }
  if (isAdminOf(ctx.appsRoles, MODULES["api-settings"].access.key)) {
    return { ...entry("api-settings", ctx), id: "global-settings" };
  }
  return global;
}

/** Builds the mega menu; IO Monitoring appears only when the customer's applications list it. */
export function buildMegaMenu(ctx: AccessContext): MegaMenuModel {
  return {
    toolset: TOOLSET.map((id) =>
      id === "global-settings" ? globalSettingsEntry(ctx) : entry(id, ctx)
    ),
    dataExport: entry("data-export", ctx),
    modules: SOFTWARE_MODULES.map((id) => entry(id, ctx)).filter(
      (e) => e.denial !== "not-in-customer-applications",
    ),
  };
}
