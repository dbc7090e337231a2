/** The public configuration served at `/config.json` (`WebConfig` of kernel/contract.ts). */
import type { WebConfig } from "../../../kernel/contract.ts";

/** Validated public configuration; `apiBaseUrl` empty for the same origin. */
export type AppConfig = Required<WebConfig>;

/** Thrown when `/config.json` is missing a field; the message names the field. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

function text(source: Record<string, unknown>, field: string, fallback?: string): string {
  const value = source[field];
  if (typeof value === "string" && value.trim() !== "") return value;
  if (fallback !== undefined) return fallback;
  throw new ConfigError(`Invalid /config.json: ${field} is missing`);
}

function record(value: unknown, field: string): Record<string, unknown> {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    return value as Record<string, unknown>;
  }
  throw new ConfigError(`Invalid /config.json: ${field} is missing`);
}

/** Validates the JSON of `/config.json`, filling optional fields with their defaults. */
export function parseConfig(json: unknown): AppConfig {
  const root = record(json, "root object");
  const oidc = record(root.oidc, "oidc");
  const open = Array.isArray(root.appsOpenToAll)
    ? root.appsOpenToAll.filter((v): v is string => typeof v === "string")
    : ["user-settings", "app:api-doc"];
  return {
    appName: text(root, "appName", "GridWatch"),
    version: text(root, "version", ""),
    vendorUrl: text(root, "vendorUrl", ""),
    oidc: {
      authority: text(oidc, "authority"),
      clientId: text(oidc, "clientId"),
      scope: text(oidc, "scope", "openid profile email offline_access"),
    },
    defaultStartPage: text(root, "defaultStartPage", "/grid-monitoring"),
    defaultStartPageKey: text(root, "defaultStartPageKey", "hes:data-export"),
    appsOpenToAll: open,
    helpBaseUrl: text(root, "helpBaseUrl", "/help").replace(/\/+$/, ""),
    apiBaseUrl: text(root, "apiBaseUrl", "").replace(/\/+$/, ""),
    publicUrl: text(root, "publicUrl", "").replace(/\/+$/, ""),
    sessionInactivityMinutes: typeof root.sessionInactivityMinutes === "number" &&
        root.sessionInactivityMinutes >= 0
      ? root.sessionInactivityMinutes
      : 30,
  };
}
