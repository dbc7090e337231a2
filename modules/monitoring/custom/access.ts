/** Who calls custom monitoring, which customers they see, and the per-customer write lock. */
import { sql } from "drizzle-orm";
import type { Db } from "../../../kernel/mod.ts";

/** The caller of a custom monitoring action, resolved from the access token. */
export interface Caller {
  userId: string;
  /** The caller's own customer. */
  customerKey: string;
  /** Super roles act on every customer's nodes. */
  superRole: boolean;
  /** app:grid-monitoring:admin (or super-admin): triggers and requests without end. */
  admin: boolean;
}

/** A drizzle transaction handle. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The customers whose nodes and requests `caller` may see. */
export async function visibleCustomerKeys(
  caller: Caller,
  allCustomerKeys: () => Promise<readonly string[]>,
): Promise<readonly string[]> {
  return caller.superRole ? await allCustomerKeys() : [caller.customerKey];
}

/** Whether a row of `customerKey` is visible to `caller` (else it answers 404). */
export function sees(caller: Caller, customerKey: string): boolean {
  return caller.superRole || caller.customerKey === customerKey;
}

/**
 * Serialises the rule checks and writes of one customer until the transaction ends, so that two
 * concurrent starts cannot both pass a limit (works on PostgreSQL and PGlite alike).
 */
export async function lockCustomer(tx: Tx, customerKey: string): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(hashtext(${`custom-monitoring:${customerKey}`}))`,
  );
}
