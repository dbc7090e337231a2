/**
 * Automatic triggers of custom monitoring: per node, or customer-wide (node_id null) for every
 * node without an enabled trigger of its own. At most one enabled trigger per scope (330).
 */
import { and, asc, eq, isNull, ne, type SQL } from "drizzle-orm";
import { checkTriggerEnable } from "../../../core/mod.ts";
import { AppError, type Db, validationError } from "../../../kernel/mod.ts";
import { isAllowedDuration, type TriggerDto } from "../contract.ts";
import { type Caller, lockCustomer, sees, type Tx } from "./access.ts";
import type { RequestService } from "./requests.ts";
import { customTriggers, type TriggerRow } from "./schema.ts";

export type { TriggerDto };

/** Settings of a trigger (both deltas are required, spec 5). */
export interface TriggerSettings {
  deltaLvA: number;
  deltaMvA: number;
  durationMin: number;
  enabled: boolean;
}

function toDto(r: TriggerRow): TriggerDto {
  return {
    id: r.id,
    node_id: r.nodeId,
    delta_lv_a: r.deltaLvA,
    delta_mv_a: r.deltaMvA,
    duration_min: r.durationMin,
    enabled: r.enabled,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    last_fire: r.lastFiredAt && r.lastFireStatus
      ? {
        at: r.lastFiredAt.toISOString(),
        status: r.lastFireStatus,
        code: r.lastFireCode,
        request_id: r.lastRequestId,
      }
      : null,
  };
}

// Other processes sharing the database change triggers too: re-read at least this often.
const CACHE_MS = 60_000;

/** Trigger settings, and the enabled triggers the watcher evaluates. */
export class TriggerService {
  readonly #listeners: (() => void | Promise<void>)[] = [];
  #enabled: { at: number; rows: Promise<TriggerRow[]> } | null = null;

  constructor(
    private readonly db: Db,
    private readonly requests: RequestService,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called after every change, before the change is answered. */
  onChanged(listener: () => void | Promise<void>): void {
    this.#listeners.push(listener);
  }

  /** Every enabled trigger of every customer (cached). */
  enabledTriggers(): Promise<TriggerRow[]> {
    const now = this.now();
    if (!this.#enabled || now - this.#enabled.at >= CACHE_MS) {
      const rows = this.db.select().from(customTriggers).where(eq(customTriggers.enabled, true));
      this.#enabled = { at: now, rows: Promise.resolve(rows) };
      this.#enabled.rows.catch(() => (this.#enabled = null));
    }
    return this.#enabled.rows;
  }

  /** The triggers of the caller's customer, or of one node. */
  async list(caller: Caller, nodeId?: string): Promise<TriggerDto[]> {
    const where = nodeId === undefined
      ? eq(customTriggers.customerKey, caller.customerKey)
      : eq(customTriggers.nodeId, (await this.requests.node(caller, nodeId)).id);
    const rows = await this.db.select().from(customTriggers).where(where)
      .orderBy(asc(customTriggers.createdAt));
    return rows.map(toDto);
  }

  async get(caller: Caller, id: string): Promise<TriggerDto> {
    return toDto(await this.#row(caller, id));
  }

  /** Creates a trigger on a node (or customer-wide); 330 when one is enabled there already. */
  async create(caller: Caller, nodeId: string | null, s: TriggerSettings): Promise<TriggerDto> {
    checkDuration(s.durationMin);
    const customerKey = nodeId === null
      ? caller.customerKey
      : (await this.requests.node(caller, nodeId)).customerKey;
    const row = await this.db.transaction(async (tx) => {
      await lockCustomer(tx, customerKey);
      if (s.enabled) checkTriggerEnable(await enabledInScope(tx, customerKey, nodeId, null));
      const [row] = await tx.insert(customTriggers).values({
        id: crypto.randomUUID(),
        customerKey,
        nodeId,
        deltaLvA: s.deltaLvA,
        deltaMvA: s.deltaMvA,
        durationMin: s.durationMin,
        enabled: s.enabled,
        createdBy: caller.userId,
      }).returning();
      return row!;
    });
    await this.#changed();
    return toDto(row);
  }

  /** Replaces a trigger's settings; enabling it is refused with 330 when its scope has one. */
  async update(caller: Caller, id: string, s: TriggerSettings): Promise<TriggerDto> {
    checkDuration(s.durationMin);
    const existing = await this.#row(caller, id);
    const row = await this.db.transaction(async (tx) => {
      await lockCustomer(tx, existing.customerKey);
      if (s.enabled) {
        checkTriggerEnable(await enabledInScope(tx, existing.customerKey, existing.nodeId, id));
      }
      const [row] = await tx.update(customTriggers).set({
        deltaLvA: s.deltaLvA,
        deltaMvA: s.deltaMvA,
        durationMin: s.durationMin,
        enabled: s.enabled,
        updatedAt: new Date(this.now()),
      }).where(eq(customTriggers.id, id)).returning();
      return row!;
    });
    await this.#changed();
    return toDto(row);
  }

  /** Disables a trigger (kept for the history of the requests it started). */
  async disable(caller: Caller, id: string): Promise<TriggerDto> {
    await this.#row(caller, id);
    const [row] = await this.db.update(customTriggers)
      .set({ enabled: false, updatedAt: new Date(this.now()) })
      .where(eq(customTriggers.id, id)).returning();
    await this.#changed();
    return toDto(row!);
  }

  async #row(caller: Caller, id: string): Promise<TriggerRow> {
    const [row] = await this.db.select().from(customTriggers).where(eq(customTriggers.id, id));
    if (!row || !sees(caller, row.customerKey)) throw new AppError("common.notFound");
    return row;
  }

  async #changed(): Promise<void> {
    this.#enabled = null;
    for (const listener of this.#listeners) await listener();
  }
}

function checkDuration(minutes: number): void {
  if (!isAllowedDuration("AUTOMATIC", minutes)) {
    throw validationError([{ path: "duration_min", key: "validation.invalidChoice", params: {} }]);
  }
}

async function enabledInScope(
  tx: Tx,
  customerKey: string,
  nodeId: string | null,
  exceptId: string | null,
): Promise<number> {
  const where: SQL[] = [
    eq(customTriggers.customerKey, customerKey),
    eq(customTriggers.enabled, true),
    nodeId === null ? isNull(customTriggers.nodeId) : eq(customTriggers.nodeId, nodeId),
  ];
  if (exceptId !== null) where.push(ne(customTriggers.id, exceptId));
  const rows = await tx.select({ id: customTriggers.id }).from(customTriggers).where(
    and(...where),
  );
  return rows.length;
}
