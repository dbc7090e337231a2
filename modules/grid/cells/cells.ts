/**
 * Cells: installation at a node and the ingestion credentials (rotate, revoke, authenticate;
 * registration is cell_onboarding.ts). Authentication is on the ingest hot path, so verified
 * credentials are cached briefly; rotation and revocation clear the cache at once.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../kernel/mod.ts";
import { hashSecret, newSecret, parseCredential, sameHash } from "./credentials.ts";
import { cells, feeders } from "../schema.ts";

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

/** A cached identity is read again after this long (feeder slots changed by the setup). */
const CACHE_MS = 60_000;
/** Identities past CACHE_MS are read again together, this often. */
const REFRESH_MS = 500;

interface Cached {
  hash: string;
  /** The secret once one matched `hash`: later batches compare it instead of hashing again. */
  secret?: string;
  identity: CellIdentity;
  until: number;
}

/** Cell registry and credentials. */
export class CellsService {
  readonly #cache = new Map<string, Cached>();
  /** Bumped when a cell's credential or placement changes: reads begun before it are dropped. */
  readonly #changes = new Map<string, number>();
  /** Cells whose cached identity is due to be read again. */
  readonly #stale = new Set<string>();
  #refresh: ReturnType<typeof setTimeout> | undefined;

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
      this.#read(ids, Date.now()).catch(() => undefined);
    }, REFRESH_MS);
  }

  /** Reads cells' credentials and feeder slots into the cache (revoked or missing: dropped). */
  async #read(ids: readonly string[], now: number): Promise<Cached[]> {
    const before = ids.map((id) => this.#changes.get(id) ?? 0);
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
    const rows = entries.map(({ cellId, status, at }) =>
      sql`(${cellId}, ${at.toISOString()}::timestamptz, ${status.firmware ?? null}::text, ${
        status.gps_fix ?? null
      }::text, ${status.gsm_signal ?? null}::text)`
    );
    await this.db.execute(sql`
      UPDATE grid.cells AS c SET last_seen = v.at,
        firmware = coalesce(v.firmware, c.firmware),
        gps_fix = coalesce(v.gps_fix, c.gps_fix),
        gsm_signal = coalesce(v.gsm_signal, c.gsm_signal)
      FROM (VALUES ${sql.join(rows, sql`, `)}) AS v(id, at, firmware, gps_fix, gsm_signal)
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
