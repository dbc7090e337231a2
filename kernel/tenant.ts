/**
 * The tenant middleware: every customer-scoped call acts on exactly one customer, put on the
 * request context as `tenant`. Users act on their token's customer. A super role
 * (super-user, super-admin) may name another customer with the `X-Customer` header (its key);
 * the web app sends the customer picked in the user menu on every call. Anyone else naming a
 * foreign customer, and anyone naming an unknown one, gets the same 404 as a missing resource.
 * What belongs to the caller as a person (their profile, their notifications) stays with their
 * own customer, `homeTenant`, whatever customer they act on.
 */
import type { MiddlewareHandler } from "hono";
import { isSuperRole } from "./auth.ts";
import { CUSTOMER_HEADER } from "./contract.ts";
import { AppError } from "./errors.ts";
import type { AppEnv } from "./http.ts";

export { CUSTOMER_HEADER } from "./contract.ts";

/** The customer a request acts on. */
export interface Tenant {
  key: string;
  /** auth_connection_name: the value of the token's `app_metadata.customer`. */
  connection: string;
  /** The software modules the customer's licence lists (spec 6, e.g. IO monitoring). */
  applications: readonly string[];
}

/** Where the middleware looks customers up (the customers module; cached there). */
export interface TenantDirectory {
  byConnection(connection: string): Promise<Tenant | null>;
  byKey(key: string): Promise<Tenant | null>;
}

const KEY_SHAPE = /^[\w-]{1,64}$/;

/** Resolves the customer of the request; must run after `requireAuth`. */
export function tenant(directory: TenantDirectory): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get("principal");
    const own = await directory.byConnection(principal.customer);
    if (!own) throw new AppError("common.notFound");
    const requested = c.req.header(CUSTOMER_HEADER)?.trim();
    let chosen: Tenant | null = own;
    if (requested && requested !== own.key) {
      if (!isSuperRole(principal.role) || !KEY_SHAPE.test(requested)) {
        throw new AppError("common.notFound");
      }
      chosen = await directory.byKey(requested);
    }
    if (!chosen) throw new AppError("common.notFound");
    c.set("tenant", chosen);
    c.set("homeTenant", own);
    await next();
  };
}
