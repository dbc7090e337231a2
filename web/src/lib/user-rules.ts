/**
 * The user-management rules of spec 5 and 6 for the forms (the server, modules/users/rules.ts,
 * enforces the same): module access per app, who may grant what, reachable start pages, and
 * the field checks of names, e-mails and phone numbers.
 */
import { type CountryCode, isValidPhoneNumber } from "libphonenumber-js";
import { type AccessContext, denialReason, holdsKey, isAdminOf } from "./access.ts";
import { type ModuleId, MODULES } from "./modules.ts";
import {
  type AppRole,
  isAllowedName,
  NAME_LIMITS,
  type Role,
  ROLES,
} from "../../../modules/users/contract.ts";

export {
  type AppRole,
  DEFAULT_APP_ROLE,
  ROLES,
  USERS_PAGE_SIZE,
} from "../../../modules/users/contract.ts";
/** Delay before a typed search runs (spec 9). */
export const SEARCH_DELAY_MS = 500;

/** A module access can be granted for: its key and the i18n key of its label. */
export interface GrantableModule {
  key: string;
  label: string;
  /** Offered only when the customer's applications list the key. */
  customerApplication?: boolean;
}

/** The module keys of docs/contracts.md that access is granted for, toolset first. */
export const GRANTABLE_MODULES: readonly GrantableModule[] = [
  { key: "hes:data-export", label: "modules:data-export.title" },
  { key: "hes:infrastructure-setup", label: "modules:infrastructure-setup.title" },
  { key: "hes:io-configuration", label: "users:moduleAccess.ioConfiguration" },
  { key: "hes:scada-connector", label: "modules:scada-connector.title" },
  { key: "hes:um", label: "modules:user-management.title" },
  { key: "hes:cm", label: "modules:global-settings.title" },
  { key: "hes:api-clients", label: "modules:api-settings.title" },
  { key: "app:grid-metering", label: "modules:metering-information.title" },
  { key: "app:grid-monitoring", label: "modules:grid-monitoring.title" },
  { key: "app:visual-statistics", label: "modules:visual-statistics.title" },
  { key: "app:power-quality", label: "modules:power-quality.title" },
  { key: "app:io-monitoring", label: "modules:io-monitoring.title", customerApplication: true },
];

/** The pages a start page can be chosen from, in menu order. */
const START_PAGE_MODULES: readonly ModuleId[] = [
  "data-export",
  "user-settings",
  "infrastructure-setup",
  "scada-connector",
  "user-management",
  "global-settings",
  "api-settings",
  "metering-information",
  "grid-monitoring",
  "grid-monitoring-settings",
  "visual-statistics",
  "power-quality",
  "api-doc",
  "io-monitoring",
];

/**
 * The start pages a user with the context's apps_roles can open (what the server accepts);
 * `built: false` marks a module not built yet, which the choice no longer offers.
 */
export function reachableStartPages(
  ctx: AccessContext,
): { id: ModuleId; path: string; built: boolean }[] {
  return START_PAGE_MODULES.filter((id) => denialReason(MODULES[id].access, ctx) === null)
    .map((id) => ({ id, path: MODULES[id].path, built: MODULES[id].built }));
}

/** The role the entries give for a module key, or `null`. */
export function appRoleOf(appsRoles: readonly string[], key: string): AppRole | null {
  if (appsRoles.includes(`${key}:admin`)) return "admin";
  return appsRoles.includes(`${key}:user`) ? "user" : null;
}

/** The entries with the module key's role replaced (`null` removes access). */
export function withAppRole(
  appsRoles: readonly string[],
  key: string,
  role: AppRole | null,
): string[] {
  const rest = appsRoles.filter((e) => e !== `${key}:user` && e !== `${key}:admin`);
  return role ? [...rest, `${key}:${role}`] : rest;
}

/** True when the caller may hand out `role` (never above their own). */
export function canGrantRole(callerRole: Role, role: Role): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(callerRole);
}

/** True when the caller may grant `key:role` (a super-admin any; others what they hold). */
export function canGrantAppRole(
  caller: { role: Role; appsRoles: readonly string[] },
  key: string,
  role: AppRole,
): boolean {
  if (caller.role === "super-admin") return true;
  return role === "admin" ? isAdminOf(caller.appsRoles, key) : holdsKey(caller.appsRoles, key);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The message key of a full name's first broken rule (3-60 characters, no forbidden ones). */
export function nameError(
  name: string,
): "validation.nameMin" | "validation.nameMax" | "validation.forbiddenChars" | null {
  const trimmed = name.trim();
  if (trimmed.length < NAME_LIMITS.min) return "validation.nameMin";
  if (trimmed.length > NAME_LIMITS.max) return "validation.nameMax";
  return isAllowedName(trimmed) ? null : "validation.forbiddenChars";
}

/** True for an e-mail address the server accepts. */
export function isValidEmail(email: string): boolean {
  return email.trim().length <= 254 && EMAIL.test(email.trim());
}

/** True when the phone is empty or a valid number (national ones read with the country). */
export function isValidPhone(phone: string, country: string | undefined): boolean {
  if (!phone.trim()) return true;
  const region = country && /^[A-Z]{2}$/.test(country) ? country as CountryCode : undefined;
  try {
    return isValidPhoneNumber(phone.trim(), region);
  } catch {
    return false;
  }
}
