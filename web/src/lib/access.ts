/**
 * The access guard of spec 2.2 and the module keys of docs/contracts.md, as pure functions so
 * the same rules drive the router, the mega menu and the tests.
 */

/** What a route demands of the user. */
export interface RouteAccess {
  /** Module key of the route, e.g. `app:grid-monitoring`. */
  key: string;
  /** The route also needs the `<key>:admin` role. */
  adminOnly?: boolean;
  /** The route is offered only when the customer's `applications` list its key. */
  requiresCustomerApplication?: boolean;
}

/** What the guard knows about the user, the customer and the configuration. */
export interface AccessContext {
  appsRoles: readonly string[];
  defaultStartPageKey: string;
  appsOpenToAll: readonly string[];
  customerApplications: readonly string[];
}

/** Why a route was refused; `null` when access is granted. */
export type AccessDenial = "no-role" | "admin-only" | "not-in-customer-applications" | null;

/** The module key a `#io-configuration` hash on /infrastructure-setup demands. */
export const IO_CONFIGURATION_KEY = "hes:io-configuration";
/** The hash that opens the I/O configuration tab of Infrastructure Setup. */
export const IO_CONFIGURATION_HASH = "io-configuration";

/** True when an apps_roles entry equals `key` or starts with `key:`. */
export function holdsKey(appsRoles: readonly string[], key: string): boolean {
  return appsRoles.some((entry) => entry === key || entry.startsWith(`${key}:`));
}

/** True when the user holds `key` with the admin role (`key:admin`). */
export function isAdminOf(appsRoles: readonly string[], key: string): boolean {
  return appsRoles.includes(`${key}:admin`);
}

/** True when the key alone lets the user in: default start page, open to all, or held. */
export function hasKeyAccess(key: string, ctx: AccessContext): boolean {
  return key === ctx.defaultStartPageKey || ctx.appsOpenToAll.includes(key) ||
    holdsKey(ctx.appsRoles, key);
}

/** Explains why `access` is refused to the user, or returns `null` when it is granted. */
export function denialReason(access: RouteAccess, ctx: AccessContext): AccessDenial {
  if (access.requiresCustomerApplication && !ctx.customerApplications.includes(access.key)) {
    return "not-in-customer-applications";
  }
  if (!hasKeyAccess(access.key, ctx)) return "no-role";
  if (access.adminOnly && !isAdminOf(ctx.appsRoles, access.key)) return "admin-only";
  return null;
}

/** Normalises a URL hash (`#io-configuration`, `io-configuration`) to its bare name. */
export function bareHash(hash: string): string {
  return hash.startsWith("#") ? hash.slice(1) : hash;
}

/**
 * The full guard for one location: the route's own access, plus the I/O configuration hash on
 * /infrastructure-setup, which needs some role for `hes:io-configuration`.
 */
export function canAccess(
  access: RouteAccess | undefined,
  ctx: AccessContext,
  location: { pathname: string; hash: string },
): boolean {
  if (access && denialReason(access, ctx) !== null) return false;
  if (
    location.pathname.replace(/\/+$/, "") === "/infrastructure-setup" &&
    bareHash(location.hash) === IO_CONFIGURATION_HASH
  ) {
    return holdsKey(ctx.appsRoles, IO_CONFIGURATION_KEY);
  }
  return true;
}
