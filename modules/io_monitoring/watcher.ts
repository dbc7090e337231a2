/**
 * Turns digital state changes into `io.stateChanged` events. After each commit of the
 * measurement store (coalesced: one scan at a time, commits during a scan make one more), the
 * watcher reads the last {@link FRESH_MS} of values of every active digital channel and compares
 * the newest state with the state it remembered (table io_monitoring.channel_states, so a
 * restart does not notify again). A first sight and a change older than {@link FRESH_MS}
 * (history being filled in) are remembered silently; a fresh change is published once.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { inArray } from "drizzle-orm";
import { activeIoCells, type IoCell } from "../grid/mod.ts";
import type { Db, EventBus, Logger } from "../../kernel/mod.ts";
import type { IoStateChanged } from "./events.ts";
import { channelStates } from "./schema.ts";
import { detectChange, type KnownState } from "./series.ts";

/** A change is notified only when it happened at most this long ago. */
export const FRESH_MS = 10 * 60_000;
/** Least time between the starts of two scans. */
const MIN_GAP_MS = 2_000;
/** The watched channels are listed again at most this often (configuration changes). */
const LIST_MS = 30_000;

export interface IoWatcherDeps {
  db: Db;
  analytics: Pick<DuckDBConnection, "runAndReadAll">;
  bus: EventBus;
  logger: Logger;
  now?: () => number;
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

export class IoStateWatcher {
  readonly #deps: IoWatcherDeps;
  readonly #now: () => number;
  #cells: { at: number; list: IoCell[] } | null = null;
  #running: Promise<void> | null = null;
  #queued = false;
  #closed = false;

  constructor(deps: IoWatcherDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /** Asks for a scan; resolves when a scan that started after this call has finished. */
  poke(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#running) {
      this.#queued = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#queued = false;
        const started = Date.now();
        try {
          await this.scan();
        } catch (error) {
          this.#deps.logger.error("IO state scan failed", { error });
        }
        // History being filled in commits many groups a second: scan at most every MIN_GAP_MS.
        const wait = MIN_GAP_MS - (Date.now() - started);
        if (this.#queued && wait > 0) await new Promise((r) => setTimeout(r, wait));
      } while (this.#queued && !this.#closed);
      this.#running = null;
    })();
    return this.#running;
  }

  /** Stops scanning and waits for the running scan. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#running;
  }

  /** One scan of every active digital channel (exposed for tests). */
  async scan(): Promise<void> {
    const now = this.#now();
    if (!this.#cells || now - this.#cells.at > LIST_MS) {
      this.#cells = { at: now, list: await activeIoCells(this.#deps.db, null) };
    }
    const cells = this.#cells.list
      .map((c) => ({ ...c, modules: c.modules.filter((m) => m.module_type !== "ANALOG_INPUT") }))
      .filter((c) => c.modules.length);
    if (!cells.length) return;
    const recent = await this.#recent(cells, now - FRESH_MS);
    if (!recent.size) return;
    const known = await this.#known(cells.map((c) => c.cell_id));
    for (const cell of cells) {
      for (const m of cell.modules) {
        for (let channel = 1; channel <= m.size; channel++) {
          const key = `${cell.cell_id}|${m.slot}|${channel}`;
          const rows = recent.get(key);
          if (!rows) continue;
          const before = known.get(key) ?? null;
          const decision = detectChange(rows, before, now, FRESH_MS);
          if (!decision) continue;
          await this.#deps.db.insert(channelStates).values({
            cellId: cell.cell_id,
            module: m.slot,
            channel,
            value: decision.value,
            changedAt: new Date(decision.changedAt),
          }).onConflictDoUpdate({
            target: [channelStates.cellId, channelStates.module, channelStates.channel],
            set: { value: decision.value, changedAt: new Date(decision.changedAt) },
          });
          if (!decision.notify || !before) continue;
          const event: IoStateChanged = {
            customerKey: cell.customer_key,
            cellId: cell.cell_id,
            nodeId: cell.node_id,
            nodeName: cell.node_name,
            electricalWorkKey: cell.electrical_work.key,
            electricalWorkName: cell.electrical_work.name,
            slot: m.slot,
            moduleName: m.name,
            moduleType: m.module_type as IoStateChanged["moduleType"],
            channel,
            value: decision.value,
            previous: before.value ? 1 : 0,
            at: new Date(decision.changedAt).toISOString(),
          };
          await this.#deps.bus.publish("io.stateChanged", event);
        }
      }
    }
  }

  /** Digital values since `from`, sorted by time, per cell|module|channel. */
  async #recent(
    cells: readonly IoCell[],
    from: number,
  ): Promise<Map<string, { ts: number; value: number }[]>> {
    const out = new Map<string, { ts: number; value: number }[]>();
    const result = await this.#deps.analytics.runAndReadAll(
      `SELECT cell_id, module, channel, epoch_ms(ts), value FROM io_states
       WHERE cell_id IN (${cells.map((c) => quote(c.cell_id)).join(",")})
         AND kind IN ('DI', 'DO') AND ts >= make_timestamp(${Math.floor(from) * 1000})
       ORDER BY cell_id, module, channel, ts`,
    );
    const watched = new Set(cells.flatMap((c) => c.modules.map((m) => `${c.cell_id}|${m.slot}`)));
    for (
      const [cell, module, channel, ts, value] of result.getRows() as [
        string,
        number,
        number,
        bigint,
        number,
      ][]
    ) {
      if (!watched.has(`${cell}|${module}`)) continue;
      const key = `${cell}|${module}|${channel}`;
      const list = out.get(key) ?? [];
      list.push({ ts: Number(ts), value });
      out.set(key, list);
    }
    return out;
  }

  async #known(cellIds: readonly string[]): Promise<Map<string, KnownState>> {
    const rows = await this.#deps.db.select().from(channelStates)
      .where(inArray(channelStates.cellId, [...cellIds]));
    return new Map(rows.map((r) => [
      `${r.cellId}|${r.module}|${r.channel}`,
      { value: r.value, changedAt: r.changedAt.getTime() },
    ]));
  }
}
