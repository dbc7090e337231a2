/**
 * Pure rules of user management (spec 5 and 6): module keys and app roles, reachable start
 * pages, who may grant what, and field checks. The web form mirrors them; the server enforces.
 */
import { isValidPhoneNumber, parsePhoneNumberWithError } from "libphonenumber-js";
import { holdsKey, isAppAdmin, type Principal, type Role, ROLES } from "../../kernel/mod.ts";
import { DEFAULT_APP_ROLE } from "./contract.ts";

export {
  APP_ROLES,
  DEFAULT_APP_ROLE,
  FORBIDDEN_NAME_CHARACTERS,
  isAllowedName,
  isAppsRolesEntry,
  MODULE_KEYS,
  UI_LANGUAGES,
  USERS_PAGE_SIZE,
} from "./contract.ts";

/** A page a user may be sent to at login, with the access it demands (spec 2.2). */
export interface StartPage {
  path: string;
  key: string;
  /** Open to every signed-in user (default start page key, or open to all). */
  open?: boolean;
  adminOnly?: boolean;
  /** Offered only when the customer's applications list the key. */
  customerApplication?: boolean;
}

/** The module entry pages of spec 2.1, as the web's module registry lists them. */
export const START_PAGES: readonly StartPage[] = [
  { path: "/data-export", key: "hes:data-export", open: true },
  { path: "/user-settings", key: "user-settings", open: true },
  { path: "/infrastructure-setup", key: "hes:infrastructure-setup" },
  { path: "/scada-connector", key: "hes:scada-connector" },
  { path: "/user-management", key: "hes:um", adminOnly: true },
  { path: "/global-settings", key: "hes:cm", adminOnly: true },
  { path: "/api-settings", key: "hes:api-clients", adminOnly: true },
  { path: "/metering-information", key: "app:grid-metering" },
  { path: "/grid-monitoring", key: "app:grid-monitoring" },
  { path: "/grid-monitoring-settings", key: "app:grid-monitoring", adminOnly: true },
  { path: "/visual-statistics/statistics", key: "app:visual-statistics" },
  { path: "/power-quality/reports", key: "app:power-quality" },
  { path: "/api-doc", key: "app:api-doc", open: true },
  { path: "/io-monitoring", key: "app:io-monitoring", customerApplication: true },
];

/** The start pages a user with these apps_roles can open in this customer. */
export function reachableStartPages(
  appsRoles: readonly string[],
  customerApplications: readonly string[],
): string[] {
  return START_PAGES.filter((page) => {
    if (page.customerApplication && !customerApplications.includes(page.key)) return false;
    if (page.open) return true;
    if (!holdsKey(appsRoles, page.key)) return false;
    return !page.adminOnly || isAppAdmin(appsRoles, page.key);
  }).map((page) => page.path);
}

/** The module key of an entry (`app:grid-monitoring:admin` -> `app:grid-monitoring`). */
export function moduleKeyOf(entry: string): string {
  return entry === DEFAULT_APP_ROLE ? entry : entry.slice(0, entry.lastIndexOf(":"));
}

/** Sorted, without duplicates, with `hes:default` always present. */
export function normalizeAppsRoles(entries: readonly string[]): string[] {
  return [...new Set([DEFAULT_APP_ROLE, ...entries])].sort();
}

/** Rank of a role: user 0 < admin 1 < super-user 2 < super-admin 3. */
export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** True when the caller may hand out `role` (never above their own). */
export function canGrantRole(caller: Pick<Principal, "role">, role: Role): boolean {
  return roleRank(role) <= roleRank(caller.role);
}

/**
 * True when the caller may grant this apps_roles entry: a super-admin any, others only a role
 * they hold themselves (`key:admin` needs `key:admin`; `key:user` needs some role for `key`).
 */
export function canGrantAppRole(caller: Pick<Principal, "role" | "appsRoles">, entry: string) {
  if (entry === DEFAULT_APP_ROLE || caller.role === "super-admin") return true;
  const key = moduleKeyOf(entry);
  return entry.endsWith(":admin")
    ? isAppAdmin(caller.appsRoles, key)
    : holdsKey(caller.appsRoles, key);
}

/**
 * A valid mobile number in international format (`+41 79 123 45 67`), read with the customer's
 * country when it is written nationally; `null` when the number is not valid.
 */
export function normalizePhone(phone: string, country: string | undefined): string | null {
  const region = country && /^[A-Z]{2}$/.test(country) ? country as never : undefined;
  try {
    if (!isValidPhoneNumber(phone, region)) return null;
    return parsePhoneNumberWithError(phone, region).formatInternational();
  } catch {
    return null;
  }
}
