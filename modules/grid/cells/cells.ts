/**
 * Cells: installation at a node and the ingestion credentials (rotate, revoke, authenticate;
 * registration is cell_onboarding.ts). Authentication is on the ingest hot path, so verified
 * credentials are cached; rotation and revocation clear the cache at once, and changes made
 * elsewhere (another instance, the setup's feeders) are noticed through the `cells` change
 * counter (migration 0027), checked once a minute.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../kernel/mod.ts";
import { hashSecret, newSecret, parseCredential, sameHash } from "./credentials.ts";
import { cells, feeders } from "../schema.ts";
import { changeCounter } from "../structure/read.ts";

/** What the ingestion path knows about an authenticated cell. */
export interface CellIdentity {
  cellId: string;
  customerKey: string;
  nodeId: string | null;
  /** Feeder slots configured at the cell's node (1..6). */
  feederSlots: number[];
}

/** A cell as lists show it. */
export interface CellDto {
  id: string;
  serial_number: string;
  type: "IN_STOCK" | "WAITING_FOR_INSTALLATION" | "INSTALLED";
  status: string;
  node_id: string | null;
  revoked: boolean;
  gps_fix: string | null;
  gsm_signal: string | null;
  firmware: string | null;
  last_seen: string | null;
  provisioning_date: string;
}

/** Device status reported with a batch. */
export interface DeviceStatus {
  firmware?: string | undefined;
  gps_fix?: string | undefined;
  gsm_signal?: string | undefined;
}

/**
 * A cached identity is checked after this long: read again when the `cells` change counter moved
 * since it was read (feeder slots changed by the setup, a change on another instance).
 */
const CACHE_MS = 60_000;
/** Identities past CACHE_MS are read again together, this often. */
const REFRESH_MS = 500;

interface Cached {
  hash: string;
  /** The secret once one matched `hash`: later batches compare it instead of hashing again. */
  secret?: string;
  identity: CellIdentity;
  until: number;
  /** The `cells` change counter read before the identity was: unchanged, it is still valid. */
  counter: number;
}

/** Cell registry and credentials. */
export class CellsService {
  readonly #cache = new Map<string, Cached>();
  /** Bumped when a cell's credential or placement changes: reads begun before it are dropped. */
  readonly #changes = new Map<string, number>();
  /** Cells whose cached identity is due to be read again. */
  readonly #stale = new Set<string>();
  #refresh: ReturnType<typeof setTimeout> | undefined;
  /** The latest read of the `cells` change counter (see #counterBefore). */
  #counter: { at: number; read: Promise<number> } | null = null;

  constructor(private readonly db: Db) {}

  /** Takes a cell from stock: it waits for its installation in the field. */
  async toWaiting(cellId: string, customMessage: string | null = null): Promise<void> {
    await this.db.update(cells).set({
      type: "WAITING_FOR_INSTALLATION",
      status: "FIELD_INSTALLATION",
      customMessage,
    }).where(eq(cells.id, cellId));
  }

  /** Links a cell to a node and marks it installed and connected. */
  async install(cellId: string, nodeId: string): Promise<void> {
    await this.db.update(cells).set({ nodeId, type: "INSTALLED", status: "CONNECTED" })
      .where(eq(cells.id, cellId));
    this.#changed(cellId);
  }

  /**
   * Issues a new secret (returned once); the old one stops working immediately. Callers that
   * act for a user check the cell's customer first (CellOnboardingService.rotate).
   */
  async rotateCredential(cellId: string, at = new Date()): Promise<string> {
    const secret = newSecret();
    await this.db.update(cells).set({
      credentialHash: await hashSecret(secret),
      credentialIssuedAt: at,
      revoked: false,
    }).where(eq(cells.id, cellId));
    this.#changed(cellId);
    return `${cellId}.${secret}`;
  }

  /** Refuses every further batch of the cell until a new credential is issued. */
  async revoke(cellId: string): Promise<void> {
    await this.db.update(cells).set({ revoked: true }).where(eq(cells.id, cellId));
    this.#changed(cellId);
  }

  /**
   * The identity behind a credential, or null for unknown, revoked or wrong credentials. On the
   * hot path of ingestion: a known cell is answered from memory; its identity, once older than
   * CACHE_MS, is read again in the background together with others (one query for many cells,
   * not two per cell every minute). Rotation and revocation take effect at once.
   */
  async authenticate(credential: string, now = Date.now()): Promise<CellIdentity | null> {
    const parsed = parseCredential(credential);
    if (!parsed) return null;
    const cached = this.#cache.get(parsed.cellId);
    if (cached) {
      if (cached.until <= now) this.#queueRefresh(parsed.cellId);
      // Constant time, like the hash comparison it saves (a SHA-256 per batch).
      if (cached.secret !== undefined) {
        return sameHash(cached.secret, parsed.secret) ? cached.identity : null;
      }
    }
    const entry = cached ?? (await this.#read([parsed.cellId], now))[0];
    if (!entry || !sameHash(entry.hash, await hashSecret(parsed.secret))) return null;
    entry.secret = parsed.secret;
    return entry.identity;
  }

  #queueRefresh(cellId: string): void {
    this.#stale.add(cellId);
    this.#refresh ??= setTimeout(() => {
      this.#refresh = undefined;
      const ids = [...this.#stale];
      this.#stale.clear();
      // A failed read keeps the cached identities; they are queued again at their next batch.
      this.#revalidate(ids).catch(() => undefined);
    }, REFRESH_MS);
  }

  /**
   * The `cells` change counter as read before now. Any value read earlier is safe to compare
   * with (a change after it shows as a difference later), so reads started within REFRESH_MS
   * are shared: the first batches of thousands of cells after a start need not read it each.
   */
  #counterBefore(): Promise<number> {
    const now = Date.now();
    if (!this.#counter || this.#counter.at + REFRESH_MS <= now) {
      const read = changeCounter(this.db, "cells");
      this.#counter = { at: now, read };
      read.catch(() => {
        if (this.#counter?.read === read) this.#counter = null;
      });
    }
    return this.#counter.read;
  }

  /**
   * Keeps the cached identities of `ids` when the `cells` change counter did not move since they
   * were read (one row instead of every cell's row and feeders: at 5,000 cells that read cost the
   * embedded database over a second of the event loop every minute), else reads them again.
   */
  async #revalidate(ids: readonly string[]): Promise<void> {
    const counter = await this.#counterBefore();
    const now = Date.now();
    const changed: string[] = [];
    for (const id of ids) {
      const entry = this.#cache.get(id);
      if (entry?.counter === counter) entry.until = now + CACHE_MS;
      else if (entry) changed.push(id);
    }
    if (changed.length) await this.#read(changed, now);
  }

  /** Reads cells' credentials and feeder slots into the cache (revoked or missing: dropped). */
  async #read(ids: readonly string[], now: number): Promise<Cached[]> {
    const before = ids.map((id) => this.#changes.get(id) ?? 0);
    const counter = await this.#counterBefore();
    const rows = await this.db.select().from(cells).where(inArray(cells.id, [...ids]));
    const nodeIds = [...new Set(rows.map((r) => r.nodeId).filter((n): n is string => !!n))];
    const slots = new Map<string, number[]>();
    if (nodeIds.length) {
      const list = await this.db.select({ node: feeders.nodeId, slot: feeders.slot }).from(feeders)
        .where(inArray(feeders.nodeId, nodeIds));
      for (const { node, slot } of list) slots.set(node, [...(slots.get(node) ?? []), slot]);
    }
    const found = new Set<string>();
    const entries: Cached[] = [];
    const current = new Set(ids.filter((id, k) => (this.#changes.get(id) ?? 0) === before[k]));
    for (const row of rows) {
      if (row.revoked || !row.credentialHash || !current.has(row.id)) continue;
      found.add(row.id);
      const known = this.#cache.get(row.id);
      const entry: Cached = {
        hash: row.credentialHash,
        ...(known?.hash === row.credentialHash && known.secret ? { secret: known.secret } : {}),
        identity: {
          cellId: row.id,
          customerKey: row.customerKey,
          nodeId: row.nodeId,
          feederSlots: row.nodeId ? (slots.get(row.nodeId) ?? []).sort((a, b) => a - b) : [],
        },
        until: now + CACHE_MS,
        counter,
      };
      this.#cache.set(row.id, entry);
      entries.push(entry);
    }
    for (const id of current) if (!found.has(id)) this.#cache.delete(id);
    return entries;
  }

  /**
   * Forgets a cell's cached identity because its placement changed elsewhere (linked to or
   * unlinked from a node): its next batch is read with the new node and feeder slots.
   */
  forget(cellId: string): void {
    this.#changed(cellId);
  }

  /** Forgets a cell's cached identity: its credential or placement changed. */
  #changed(cellId: string): void {
    this.#cache.delete(cellId);
    this.#changes.set(cellId, (this.#changes.get(cellId) ?? 0) + 1);
  }

  /** Stops the background refresh of cached identities. */
  close(): void {
    clearTimeout(this.#refresh);
    this.#refresh = undefined;
  }

  /** Stores the device status of the latest batch. */
  async recordStatus(cellId: string, status: DeviceStatus, at = new Date()): Promise<void> {
    await this.db.update(cells).set({
      lastSeen: at,
      ...(status.firmware ? { firmware: status.firmware } : {}),
      ...(status.gps_fix ? { gpsFix: status.gps_fix } : {}),
      ...(status.gsm_signal ? { gsmSignal: status.gsm_signal } : {}),
    }).where(eq(cells.id, cellId));
  }

  /**
   * Records the device status of many cells in one statement (the ingestion path collects them:
   * one write per batch would cost more than storing the batch). Fields a status lacks keep
   * their stored value.
   */
  async recordStatuses(
    entries: readonly { cellId: string; status: DeviceStatus; at: Date }[],
  ): Promise<void> {
    if (!entries.length) return;
    // Five array parameters rather than five per cell: parsing 25,000 parameters cost the
    // embedded database about twice the time of the update itself at 5,000 cells.
    const column = (pick: (e: (typeof entries)[number]) => string | null) =>
      sql.param(entries.map(pick));
    const ids = column((e) => e.cellId);
    const at = column((e) => e.at.toISOString());
    const firmware = column((e) => e.status.firmware ?? null);
    const gps = column((e) => e.status.gps_fix ?? null);
    const gsm = column((e) => e.status.gsm_signal ?? null);
    await this.db.execute(sql`
      UPDATE grid.cells AS c SET last_seen = v.at,
        firmware = coalesce(v.firmware, c.firmware),
        gps_fix = coalesce(v.gps_fix, c.gps_fix),
        gsm_signal = coalesce(v.gsm_signal, c.gsm_signal)
      FROM unnest(${ids}::text[], ${at}::timestamptz[], ${firmware}::text[], ${gps}::text[],
        ${gsm}::text[]) AS v(id, at, firmware, gps_fix, gsm_signal)
      WHERE c.id = v.id`);
  }

  /** The cells of a customer (installed first, then by id). */
  async listFor(customerKey: string, type?: CellDto["type"]): Promise<CellDto[]> {
    const where = type
      ? and(eq(cells.customerKey, customerKey), eq(cells.type, type))
      : eq(cells.customerKey, customerKey);
    const rows = await this.db.select().from(cells).where(where).orderBy(asc(cells.id));
    return rows.map((r) => ({
      id: r.id,
      serial_number: r.serialNumber,
      type: r.type,
      status: r.status,
      node_id: r.nodeId,
      revoked: r.revoked,
      gps_fix: r.gpsFix,
      gsm_signal: r.gsmSignal,
      firmware: r.firmware,
      last_seen: r.lastSeen?.toISOString() ?? null,
      provisioning_date: r.provisioningDate.toISOString(),
    }));
  }
}
