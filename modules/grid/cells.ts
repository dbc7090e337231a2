/**
 * Cells: registration from stock, installation at a node, and the ingestion credentials
 * (issue, rotate, revoke, authenticate). Authentication is on the ingest hot path, so verified
 * credentials are cached briefly; rotation and revocation clear the cache at once.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../kernel/mod.ts";
import { hashSecret, newSecret, parseCredential, sameHash } from "./credentials.ts";
import { cells, feeders } from "./schema.ts";

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

const CACHE_MS = 60_000;

/** Cell registry and credentials. */
export class CellsService {
  readonly #cache = new Map<string, { hash: string; identity: CellIdentity; until: number }>();

  constructor(private readonly db: Db) {}

  /** Registers a new cell in stock and issues its first credential (returned once). */
  async register(
    customerKey: string,
    serialNumber: string,
    deviceModel: "GW4" | "DTVI" = "GW4",
  ): Promise<{ cellId: string; credential: string }> {
    const cellId = `C${serialNumber.replace(/[^A-Za-z0-9]/g, "").slice(-12)}`;
    const secret = newSecret();
    await this.db.insert(cells).values({
      id: cellId,
      customerKey,
      serialNumber,
      type: "IN_STOCK",
      status: "READY_FOR_CONFIGURATION",
      credentialHash: await hashSecret(secret),
      credentialIssuedAt: new Date(),
      revoked: false,
      mapping: {},
      deviceModel,
    });
    return { cellId, credential: `${cellId}.${secret}` };
  }

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
    this.#cache.delete(cellId);
  }

  /** Issues a new secret; the old one stops working immediately. */
  async rotateCredential(cellId: string): Promise<string> {
    const secret = newSecret();
    await this.db.update(cells).set({
      credentialHash: await hashSecret(secret),
      credentialIssuedAt: new Date(),
      revoked: false,
    }).where(eq(cells.id, cellId));
    this.#cache.delete(cellId);
    return `${cellId}.${secret}`;
  }

  /** Refuses every further batch of the cell until a new credential is issued. */
  async revoke(cellId: string): Promise<void> {
    await this.db.update(cells).set({ revoked: true }).where(eq(cells.id, cellId));
    this.#cache.delete(cellId);
  }

  /** The identity behind a credential, or null for unknown, revoked or wrong credentials. */
  async authenticate(credential: string, now = Date.now()): Promise<CellIdentity | null> {
    const parsed = parseCredential(credential);
    if (!parsed) return null;
    const hash = await hashSecret(parsed.secret);
    const cached = this.#cache.get(parsed.cellId);
    if (cached && cached.until > now) return sameHash(cached.hash, hash) ? cached.identity : null;
    const [row] = await this.db.select().from(cells).where(eq(cells.id, parsed.cellId));
    if (!row || row.revoked || !row.credentialHash) return null;
    const slots = row.nodeId
      ? (await this.db.select({ slot: feeders.slot }).from(feeders).where(
        eq(feeders.nodeId, row.nodeId),
      ))
        .map((f) => f.slot)
      : [];
    const identity = {
      cellId: row.id,
      customerKey: row.customerKey,
      nodeId: row.nodeId,
      feederSlots: slots,
    };
    this.#cache.set(row.id, { hash: row.credentialHash, identity, until: now + CACHE_MS });
    return sameHash(row.credentialHash, hash) ? identity : null;
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
