/**
 * The module registry: one entry per screen area with its route, module key (docs/contracts.md),
 * help page and header switches. Routes, the mega menu and the help centre all read it.
 */
import type { LinkProps } from "@tanstack/react-router";
import type { RouteAccess } from "./access.ts";

/** Identifiers of the screen areas; also the i18n keys `modules:<id>.title`. */
export type ModuleId =
  | "user-settings"
  | "data-export"
  | "infrastructure-setup"
  | "scada-connector"
  | "user-management"
  | "global-settings"
  | "api-settings"
  | "metering-information"
  | "grid-monitoring"
  | "grid-monitoring-settings"
  | "visual-statistics"
  | "power-quality"
  | "api-doc"
  | "io-monitoring";

/** A path of the app's routes (any string where the router is not registered, as in tests). */
export type AppPath = Exclude<NonNullable<LinkProps["to"]>, "." | "..">;

/** What the shell needs to know about a module. */
export interface ModuleDefinition {
  id: ModuleId;
  /** Where links to the module go. */
  path: AppPath;
  access: RouteAccess;
  /** Help centre page name, `<name>.html`. */
  helpPage: string;
  /** The header shows the Low/Medium Voltage toggle. */
  voltageSwitch: boolean;
  /** The header shows the Auto/Manual run-mode switch. */
  runModeSwitch: boolean;
  /**
   * The screen exists in this version. A module not built yet keeps its route (an honest
   * placeholder), but the mega menu greys it with the reason and no start page leads to it.
   */
  built: boolean;
}

function define(
  id: ModuleId,
  path: AppPath,
  access: RouteAccess,
  options: { voltageSwitch?: boolean; runModeSwitch?: boolean; built?: boolean } = {},
): ModuleDefinition {
  return {
    id,
    path,
    access,
    helpPage: id,
    voltageSwitch: options.voltageSwitch ?? false,
    runModeSwitch: options.runModeSwitch ?? false,
    built: options.built ?? true,
  };
}

/** Every module of spec 2.1 with its key from docs/contracts.md. */
export const MODULES: Readonly<Record<ModuleId, ModuleDefinition>> = {
  "user-settings": define("user-settings", "/user-settings", { key: "user-settings" }),
  "data-export": define("data-export", "/data-export", { key: "hes:data-export" }),
  "infrastructure-setup": define("infrastructure-setup", "/infrastructure-setup", {
    key: "hes:infrastructure-setup",
  }),
  "scada-connector": define("scada-connector", "/scada-connector", {
    key: "hes:scada-connector",
    adminOnly: true,
  }),
  "user-management": define("user-management", "/user-management", {
    key: "hes:um",
    adminOnly: true,
  }),
  "global-settings": define("global-settings", "/global-settings", {
    key: "hes:cm",
    adminOnly: true,
  }),
  "api-settings": define("api-settings", "/api-settings", {
    key: "hes:api-clients",
    adminOnly: true,
  }),
  "metering-information": define(
    "metering-information",
    "/metering-information",
    { key: "app:grid-metering" },
    { voltageSwitch: true },
  ),
  "grid-monitoring": define(
    "grid-monitoring",
    "/grid-monitoring",
    { key: "app:grid-monitoring" },
    { voltageSwitch: true, runModeSwitch: true },
  ),
  "grid-monitoring-settings": define("grid-monitoring-settings", "/grid-monitoring-settings", {
    key: "app:grid-monitoring",
    adminOnly: true,
  }),
  "visual-statistics": define(
    "visual-statistics",
    "/visual-statistics/statistics",
    { key: "app:visual-statistics" },
    { voltageSwitch: true },
  ),
  "power-quality": define("power-quality", "/power-quality/reports", {
    key: "app:power-quality",
  }),
  "api-doc": define("api-doc", "/api-doc", { key: "app:api-doc" }),
  "io-monitoring": define("io-monitoring", "/io-monitoring", {
    key: "app:io-monitoring",
    requiresCustomerApplication: true,
  }),
};

/** The module whose help page or switches apply to `id`, or `undefined`. */
export function moduleById(id: string | undefined): ModuleDefinition | undefined {
  return id && Object.hasOwn(MODULES, id) ? MODULES[id as ModuleId] : undefined;
}

/**
 * The module a path belongs to, by its first segment (`/visual-statistics/compare` belongs to
 * visual statistics); `undefined` for paths outside the registry.
 */
export function moduleOfPath(path: string): ModuleDefinition | undefined {
  const root = `/${path.replace(/[?#].*$/, "").split("/")[1] ?? ""}`;
  return Object.values(MODULES).find((m) => `/${m.path.split("/")[1] ?? ""}` === root);
}
