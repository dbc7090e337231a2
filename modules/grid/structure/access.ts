/**
 * What every grid setup change shares: the transaction type, new ids, and the lookups of a
 * grid element of the customer. A foreign or unknown id answers the same 404 ("This element of
 * the grid was not found!"); a lookup that locks takes the row for the rest of the transaction,
 * so concurrent changes below the same parent cannot break the limits.
 */
import { and, eq } from "drizzle-orm";
import { AppError, type Db } from "../../../kernel/mod.ts";
import { lvGroups, mvFeederGroups, nodes, stationGroups } from "../schema.ts";

/** A transaction of the relational database. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** The database or a transaction. */
export type Executor = Db | Tx;

/** A new element id. */
export const newId = (): string => crypto.randomUUID();

/** The refusal of an unknown or foreign grid element. */
export function notFound(): never {
  throw new AppError("grid.elementNotFound");
}

/** A customer's station group row (404 otherwise). */
export async function findStation(tx: Executor, customerKey: string, id: string, lock = false) {
  const query = tx.select().from(stationGroups).where(
    and(eq(stationGroups.id, id), eq(stationGroups.customerKey, customerKey)),
  );
  const [row] = lock ? await query.for("update") : await query;
  return row ?? notFound();
}

/** A customer's MV feeder group row (404 otherwise). */
export async function findMvFeederGroup(
  tx: Executor,
  customerKey: string,
  id: string,
  lock = false,
) {
  const query = tx.select({ mv: mvFeederGroups }).from(mvFeederGroups)
    .innerJoin(stationGroups, eq(stationGroups.id, mvFeederGroups.stationGroupId))
    .where(and(eq(mvFeederGroups.id, id), eq(stationGroups.customerKey, customerKey)));
  const [row] = lock ? await query.for("update") : await query;
  return row?.mv ?? notFound();
}

/** A customer's LV group row (404 otherwise). */
export async function findLvGroup(tx: Executor, customerKey: string, id: string, lock = false) {
  const query = tx.select({ lv: lvGroups }).from(lvGroups)
    .innerJoin(mvFeederGroups, eq(mvFeederGroups.id, lvGroups.mvFeederGroupId))
    .innerJoin(stationGroups, eq(stationGroups.id, mvFeederGroups.stationGroupId))
    .where(and(eq(lvGroups.id, id), eq(stationGroups.customerKey, customerKey)));
  const [row] = lock ? await query.for("update") : await query;
  return row?.lv ?? notFound();
}

/** A customer's node row (404 otherwise). */
export async function findNode(tx: Executor, customerKey: string, id: string, lock = false) {
  const query = tx.select({ node: nodes }).from(nodes)
    .innerJoin(lvGroups, eq(lvGroups.id, nodes.lvGroupId))
    .innerJoin(mvFeederGroups, eq(mvFeederGroups.id, lvGroups.mvFeederGroupId))
    .innerJoin(stationGroups, eq(stationGroups.id, mvFeederGroups.stationGroupId))
    .where(and(eq(nodes.id, id), eq(stationGroups.customerKey, customerKey)));
  const [row] = lock ? await query.for("update") : await query;
  return row?.node ?? notFound();
}
