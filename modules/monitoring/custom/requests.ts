/**
 * Custom monitoring requests: start now, stop now, list, and the start of an automatic request
 * when a trigger fires. Every start checks its rules and writes in one transaction under a
 * per-customer lock, so a refused start leaves nothing behind.
 */
import { and, count, desc, eq, gt, gte, inArray, isNull, lte, or, type SQL } from "drizzle-orm";
import {
  checkStart,
  type CustomMonitoringLimits,
  DEFAULT_CUSTOM_LIMITS,
  endOf,
  isRunning,
  monthStart,
  type RunningRequest,
  triggerOutcome,
} from "../../../core/mod.ts";
import { AppError, type Db, validationError } from "../../../kernel/mod.ts";
import { isAllowedDuration, type RequestDto, type RequestStatus } from "../contract.ts";
import { type Caller, lockCustomer, sees, type Tx, visibleCustomerKeys } from "./access.ts";
import type { MonitoredNode, NodeLookup } from "./nodes.ts";
import { customRequests, customTriggers, type RequestRow, type TriggerRow } from "./schema.ts";

export type { RequestDto, RequestStatus };

/** A manual start. */
export interface StartInput {
  nodeId: string;
  feederId: string | null;
  /** Minutes from the manual list, or null for a request without end (admins only). */
  durationMin: number | null;
}

/** What a trigger fire did; `request` is set when it started one. */
export interface FireResult {
  status: "STARTED" | "FAILURE" | "IGNORED";
  code: number | null;
  request: RequestDto | null;
}

export interface RequestServiceDeps {
  db: Db;
  nodes: NodeLookup;
  allCustomerKeys: () => Promise<readonly string[]>;
  limits?: Partial<CustomMonitoringLimits>;
  now?: () => number;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Maps a row; a request past its end reads FINISHED before the next write records it. */
export function toRequestDto(r: RequestRow, now: number): RequestDto {
  const running = isRunning(
    { endsAt: r.endsAt?.getTime() ?? null, stoppedAt: r.stoppedAt?.getTime() ?? null },
    now,
  );
  return {
    id: r.id,
    node_id: r.nodeId,
    feeder_id: r.feederId,
    cell_id: r.cellId,
    kind: r.kind,
    trigger_id: r.triggerId,
    duration_min: r.durationMin,
    started_at: r.startedAt.toISOString(),
    ends_at: iso(r.endsAt),
    stopped_at: iso(r.stoppedAt),
    status: r.status === "RUNNING" && !running ? "FINISHED" : r.status,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
  };
}

/** Requests of custom monitoring. */
export class RequestService {
  readonly limits: CustomMonitoringLimits;
  readonly #db: Db;
  readonly #nodes: NodeLookup;
  readonly #allKeys: () => Promise<readonly string[]>;
  readonly #now: () => number;

  constructor(deps: RequestServiceDeps) {
    this.#db = deps.db;
    this.#nodes = deps.nodes;
    this.#allKeys = deps.allCustomerKeys;
    this.#now = deps.now ?? Date.now;
    this.limits = { ...DEFAULT_CUSTOM_LIMITS, ...deps.limits };
  }

  /** The node `nodeId` if `caller` may see it; 404 `grid.elementNotFound` otherwise. */
  async node(caller: Caller, nodeId: string): Promise<MonitoredNode> {
    const keys = await visibleCustomerKeys(caller, this.#allKeys);
    const node = await this.#nodes.find(nodeId, keys);
    if (!node) throw new AppError("grid.elementNotFound");
    return node;
  }

  /** Newest first: the node's requests, or the caller's customer's. */
  async list(
    caller: Caller,
    filter: { nodeId?: string | undefined; status?: RequestStatus | undefined; limit?: number },
  ): Promise<RequestDto[]> {
    const now = this.#now();
    const where: SQL[] = [];
    if (filter.nodeId !== undefined) {
      const node = await this.node(caller, filter.nodeId);
      where.push(eq(customRequests.nodeId, node.id));
    } else where.push(eq(customRequests.customerKey, caller.customerKey));
    if (filter.status) where.push(statusIs(filter.status, new Date(now)));
    const rows = await this.#db.select().from(customRequests).where(and(...where))
      .orderBy(desc(customRequests.startedAt)).limit(filter.limit ?? 100);
    return rows.map((r) => toRequestDto(r, now));
  }

  /** One request; 404 when missing or foreign. */
  async get(caller: Caller, id: string): Promise<RequestDto> {
    return toRequestDto(await this.#row(caller, id), this.#now());
  }

  /** One request with its node as configured now (null when the node no longer exists). */
  async withNode(
    caller: Caller,
    id: string,
  ): Promise<{ request: RequestDto; node: MonitoredNode | null }> {
    const row = await this.#row(caller, id);
    const node = await this.#nodes.find(row.nodeId, [row.customerKey]);
    return { request: toRequestDto(row, this.#now()), node };
  }

  /** Starts a manual request now (201); refused with 333, 331, 322 or 323. */
  async start(caller: Caller, input: StartInput): Promise<RequestDto> {
    if (input.durationMin === null && !caller.admin) {
      throw new AppError("common.forbidden", { reason: "infiniteRequest" });
    }
    if (input.durationMin !== null && !isAllowedDuration("MANUAL", input.durationMin)) {
      throw validationError([{
        path: "duration_min",
        key: "validation.invalidChoice",
        params: {},
      }]);
    }
    const node = await this.node(caller, input.nodeId);
    if (input.feederId !== null && !node.feeders.some((f) => f.id === input.feederId)) {
      throw new AppError("grid.elementNotFound");
    }
    const cellId = node.cellId;
    // Without a cell the node has no values to keep.
    if (cellId === null) throw new AppError(410);
    const now = this.#now();
    const row = await this.#db.transaction(async (tx) => {
      const running = await this.#prepare(tx, node.customerKey, now);
      checkStart({
        nodeId: node.id,
        running,
        monthlyForCell: await monthlyCount(tx, cellId, now),
        limits: this.limits,
      });
      return await insertRequest(tx, {
        customerKey: node.customerKey,
        nodeId: node.id,
        feederId: input.feederId,
        cellId,
        kind: "MANUAL",
        triggerId: null,
        durationMin: input.durationMin,
        startedAt: now,
        createdBy: caller.userId,
      });
    });
    return toRequestDto(row, now);
  }

  /** Stops a running request now; an ended one is answered as it is. */
  async stop(caller: Caller, id: string): Promise<RequestDto> {
    const row = await this.#row(caller, id);
    if (row.durationMin === null && !caller.admin) {
      throw new AppError("common.forbidden", { reason: "infiniteRequest" });
    }
    const now = new Date(this.#now());
    const [stopped] = await this.#db.update(customRequests)
      .set({ status: "STOPPED", stoppedAt: now })
      .where(and(eq(customRequests.id, row.id), statusIs("RUNNING", now)))
      .returning();
    return toRequestDto(stopped ?? row, now.getTime());
  }

  /**
   * Starts the automatic request of `trigger` on `node` at `startedAt` (the value before the
   * step, so the window shows it), or records why it could not. The trigger is re-read in the
   * transaction: a trigger disabled meanwhile does nothing.
   */
  async fire(trigger: TriggerRow, node: MonitoredNode, startedAt: number): Promise<FireResult> {
    return (await this.fireAll([{ trigger, node, startedAt }]))[0]!;
  }

  /**
   * {@link fire} for several nodes of one evaluation, in order, with one transaction per
   * customer: each fire sees the requests the ones before it started, as one after the other.
   */
  async fireAll(
    fires: readonly { trigger: TriggerRow; node: MonitoredNode; startedAt: number }[],
  ): Promise<FireResult[]> {
    const ignored: FireResult = { status: "IGNORED", code: null, request: null };
    const results: FireResult[] = fires.map(() => ignored);
    const byCustomer = new Map<string, number[]>();
    fires.forEach(({ trigger, node }, k) => {
      if (node.cellId === null) return;
      byCustomer.set(trigger.customerKey, [...(byCustomer.get(trigger.customerKey) ?? []), k]);
    });
    const now = this.#now();
    for (const [customerKey, indexes] of byCustomer) {
      await this.#db.transaction(async (tx) => {
        const running = await this.#prepare(tx, customerKey, now);
        const ids = [...new Set(indexes.map((k) => fires[k]!.trigger.id))];
        const enabled = new Map(
          (await tx.select().from(customTriggers).where(
            and(inArray(customTriggers.id, ids), eq(customTriggers.enabled, true)),
          )).map((t) => [t.id, t]),
        );
        const monthly = new Map<string, number>();
        for (const k of indexes) {
          const { trigger, node, startedAt } = fires[k]!;
          const current = enabled.get(trigger.id);
          if (!current) continue;
          const cellId = node.cellId!;
          const monthlyForCell = monthly.get(cellId) ?? await monthlyCount(tx, cellId, now);
          monthly.set(cellId, monthlyForCell);
          const outcome = triggerOutcome(current.id, {
            nodeId: node.id,
            running,
            monthlyForCell,
            limits: this.limits,
          });
          if (outcome.status === "IGNORED") continue;
          const row = outcome.status === "STARTED"
            ? await insertRequest(tx, {
              customerKey: current.customerKey,
              nodeId: node.id,
              feederId: null,
              cellId,
              kind: "AUTOMATIC",
              triggerId: current.id,
              durationMin: current.durationMin,
              startedAt,
              createdBy: current.createdBy,
            })
            : null;
          if (row) {
            // What the next fire's own transaction would read back.
            const endsAt = row.endsAt?.getTime() ?? null;
            if (isRunning({ endsAt, stoppedAt: null }, now)) {
              running.push({
                nodeId: node.id,
                kind: "AUTOMATIC",
                infinite: endsAt === null,
                triggerId: current.id,
              });
            }
            if (startedAt >= monthStart(now)) monthly.set(cellId, monthlyForCell + 1);
          }
          const code = outcome.status === "FAILURE" ? outcome.code : null;
          await tx.update(customTriggers).set({
            lastFiredAt: new Date(now),
            lastFireStatus: outcome.status,
            lastFireCode: code,
            lastRequestId: row?.id ?? null,
          }).where(eq(customTriggers.id, current.id));
          results[k] = {
            status: outcome.status,
            code,
            request: row ? toRequestDto(row, now) : null,
          };
        }
      });
    }
    return results;
  }

  async #row(caller: Caller, id: string): Promise<RequestRow> {
    const [row] = await this.#db.select().from(customRequests).where(eq(customRequests.id, id));
    if (!row || !sees(caller, row.customerKey)) throw new AppError("common.notFound");
    return row;
  }

  /** Locks the customer, records the requests past their end, and returns the running ones. */
  async #prepare(tx: Tx, customerKey: string, now: number): Promise<RunningRequest[]> {
    await lockCustomer(tx, customerKey);
    const at = new Date(now);
    await tx.update(customRequests).set({ status: "FINISHED" }).where(and(
      eq(customRequests.customerKey, customerKey),
      eq(customRequests.status, "RUNNING"),
      lte(customRequests.endsAt, at),
    ));
    const rows = await tx.select().from(customRequests).where(and(
      eq(customRequests.customerKey, customerKey),
      eq(customRequests.status, "RUNNING"),
    ));
    return rows.map((r) => ({
      nodeId: r.nodeId,
      kind: r.kind,
      infinite: r.endsAt === null,
      triggerId: r.triggerId,
    }));
  }
}

function statusIs(status: RequestStatus, now: Date): SQL {
  const r = customRequests;
  const ended = and(eq(r.status, "RUNNING"), lte(r.endsAt, now))!;
  if (status === "STOPPED") return eq(r.status, "STOPPED");
  if (status === "FINISHED") return or(eq(r.status, "FINISHED"), ended)!;
  return and(eq(r.status, "RUNNING"), or(isNull(r.endsAt), gt(r.endsAt, now)))!;
}

async function monthlyCount(tx: Tx, cellId: string, now: number): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(customRequests).where(and(
    eq(customRequests.cellId, cellId),
    gte(customRequests.startedAt, new Date(monthStart(now))),
  ));
  return row?.n ?? 0;
}

async function insertRequest(
  tx: Tx,
  r: Omit<RequestRow, "id" | "startedAt" | "endsAt" | "stoppedAt" | "createdAt" | "status"> & {
    startedAt: number;
  },
): Promise<RequestRow> {
  const endsAt = endOf(r.startedAt, r.durationMin);
  const [row] = await tx.insert(customRequests).values({
    ...r,
    id: crypto.randomUUID(),
    startedAt: new Date(r.startedAt),
    endsAt: endsAt === null ? null : new Date(endsAt),
    status: "RUNNING",
  }).returning();
  return row!;
}
