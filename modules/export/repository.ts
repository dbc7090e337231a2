/**
 * The exports table: the user's list and the job queue (claim with the per-customer limit,
 * progress, the end of a job, recovery after a restart, retention).
 */
import { and, count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../kernel/mod.ts";
import { EXPORT_LIMITS, type ExportDto, type ExportStatus } from "./contract.ts";
import { type ExportRow, exports } from "./schema.ts";

/** Attempts of an export interrupted by restarts before it fails (docs/export.md). */
export const MAX_ATTEMPTS = 3;

const iso = (d: Date | null) => d ? d.toISOString() : null;

export function exportDto(row: ExportRow): ExportDto {
  return {
    key: row.key,
    name: row.name,
    file_name: row.fileName,
    period: { from: row.periodFrom.toISOString(), to: row.periodTo.toISOString() },
    feeders: row.feeders,
    parameters: row.parameters as ExportDto["parameters"],
    interval: row.interval as ExportDto["interval"],
    format: row.format as ExportDto["format"],
    layout: row.layout as ExportDto["layout"],
    directory_structure: row.directoryStructure as ExportDto["directory_structure"],
    schedule_key: row.scheduleKey,
    status: row.status as ExportStatus,
    progress: {
      rows_done: row.rowsDone,
      rows_total: row.rowsTotal,
      percent: Math.round(row.percent * 10) / 10,
      stage: row.stage,
    },
    estimated_bytes: row.estimatedBytes,
    size_bytes: row.sizeBytes,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
    expires_at: iso(row.expiresAt),
    downloaded_at: iso(row.downloadedAt),
    error: row.errorKey ? { key: row.errorKey, params: row.errorParams ?? {} } : null,
  };
}

export class ExportRepository {
  constructor(private readonly db: Db) {}

  async insert(row: typeof exports.$inferInsert): Promise<void> {
    await this.db.insert(exports).values(row);
  }

  async page(customerKey: string, userId: string, page: number, size: number) {
    const where = and(eq(exports.customerKey, customerKey), eq(exports.userId, userId));
    const [items, [total]] = await Promise.all([
      this.db.select().from(exports).where(where).orderBy(desc(exports.createdAt), exports.key)
        .limit(size).offset(page * size),
      this.db.select({ n: count() }).from(exports).where(where),
    ]);
    return { items, total: total?.n ?? 0 };
  }

  async find(customerKey: string, userId: string, key: string): Promise<ExportRow | null> {
    const [row] = await this.db.select().from(exports).where(and(
      eq(exports.key, key),
      eq(exports.customerKey, customerKey),
      eq(exports.userId, userId),
    ));
    return row ?? null;
  }

  async byKey(key: string): Promise<ExportRow | null> {
    const [row] = await this.db.select().from(exports).where(eq(exports.key, key));
    return row ?? null;
  }

  /**
   * Moves up to `limit` queued exports to IN_PROGRESS, oldest first, never more than the
   * customer's limit running at once.
   */
  async claim(limit: number, now: Date): Promise<ExportRow[]> {
    const perCustomer = EXPORT_LIMITS.runningPerCustomer;
    const result = await this.db.execute(sql`
      UPDATE export.exports SET status = 'IN_PROGRESS', started_at = ${now.toISOString()},
        attempts = attempts + 1, rows_done = 0, percent = 0, stage = NULL
      WHERE status = 'QUEUED' AND key IN (
        SELECT key FROM (
          SELECT q.key, q.created_at,
            row_number() OVER (PARTITION BY q.customer_key ORDER BY q.created_at, q.key) AS rn,
            (SELECT count(*) FROM export.exports r
              WHERE r.customer_key = q.customer_key AND r.status = 'IN_PROGRESS') AS running
          FROM export.exports q WHERE q.status = 'QUEUED'
        ) c WHERE c.rn + c.running <= ${perCustomer}
        ORDER BY c.created_at LIMIT ${limit})
      RETURNING key`);
    const keys = (result as unknown as { rows: { key: string }[] }).rows.map((r) => r.key);
    if (!keys.length) return [];
    return await this.db.select().from(exports).where(inArray(exports.key, keys));
  }

  async progress(key: string, rowsDone: number, rowsTotal: number, percent: number, stage: string) {
    await this.db.update(exports).set({ rowsDone, rowsTotal, percent, stage })
      .where(and(eq(exports.key, key), eq(exports.status, "IN_PROGRESS")));
  }

  /** Ends a running export; false when it is no longer running (cancelled meanwhile). */
  async finish(key: string, sizeBytes: number, rows: number, now: Date): Promise<boolean> {
    const expiresAt = new Date(now.getTime() + EXPORT_LIMITS.retentionDays * 86_400_000);
    const done = await this.db.update(exports).set({
      status: "FINISHED",
      sizeBytes,
      rowsDone: rows,
      rowsTotal: rows,
      percent: 100,
      stage: null,
      finishedAt: now,
      expiresAt,
    }).where(and(eq(exports.key, key), eq(exports.status, "IN_PROGRESS"))).returning({
      key: exports.key,
    });
    return done.length > 0;
  }

  async fail(key: string, errorKey: string, params: Record<string, unknown>): Promise<boolean> {
    const done = await this.db.update(exports).set({
      status: "FAILED",
      errorKey,
      errorParams: params,
      stage: null,
      finishedAt: new Date(),
    }).where(and(eq(exports.key, key), inArray(exports.status, ["IN_PROGRESS", "QUEUED"])))
      .returning({ key: exports.key });
    return done.length > 0;
  }

  /** Cancels a queued or running export; false when it was not active. */
  async cancel(key: string): Promise<boolean> {
    const done = await this.db.update(exports).set({
      status: "CANCELLED",
      cancelRequested: true,
      stage: null,
      finishedAt: new Date(),
    }).where(and(eq(exports.key, key), inArray(exports.status, ["IN_PROGRESS", "QUEUED"])))
      .returning({ key: exports.key });
    return done.length > 0;
  }

  async setStatus(key: string, status: ExportStatus, extra: Partial<ExportRow> = {}) {
    await this.db.update(exports).set({ status, ...extra }).where(eq(exports.key, key));
  }

  async markDownloaded(key: string, now: Date): Promise<void> {
    await this.db.update(exports).set({ status: "DOWNLOADED", downloadedAt: now })
      .where(and(eq(exports.key, key), eq(exports.status, "FINISHED")));
  }

  /**
   * Rows a dead process left IN_PROGRESS: queued again (their partial files are removed by the
   * caller), or failed after MAX_ATTEMPTS. Returns the keys of both.
   */
  async recover(): Promise<{ requeued: string[]; failed: ExportRow[] }> {
    const requeued = await this.db.update(exports).set({ status: "QUEUED", stage: null })
      .where(and(eq(exports.status, "IN_PROGRESS"), lt(exports.attempts, MAX_ATTEMPTS)))
      .returning({ key: exports.key });
    const failed = await this.db.update(exports).set({
      status: "FAILED",
      errorKey: "export.interrupted",
      errorParams: { attempts: MAX_ATTEMPTS },
      stage: null,
      finishedAt: new Date(),
    }).where(eq(exports.status, "IN_PROGRESS")).returning();
    return { requeued: requeued.map((r) => r.key), failed };
  }

  /** Downloadable exports whose retention ended. */
  async expired(now: Date): Promise<ExportRow[]> {
    return await this.db.select().from(exports).where(and(
      inArray(exports.status, ["FINISHED", "DOWNLOADED"]),
      lt(exports.expiresAt, now),
    ));
  }

  async usage(customerKey: string): Promise<{ files: number; bytes: number }> {
    const [row] = await this.db.select({
      files: count(),
      bytes: sql<string>`coalesce(sum(${exports.sizeBytes}), 0)`,
    }).from(exports).where(and(
      eq(exports.customerKey, customerKey),
      inArray(exports.status, ["FINISHED", "DOWNLOADED"]),
    ));
    return { files: row?.files ?? 0, bytes: Number(row?.bytes ?? 0) };
  }
}
