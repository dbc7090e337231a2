/**
 * Event recordings: a user asks for an event's recording, the platform hands the request to the
 * cell as a command of its configuration answer (docs/cell-configuration.md, "Commands"), the
 * cell uploads the file (or says why it cannot), and the download status goes REQUESTED ->
 * DOWNLOADING -> DOWNLOADED | FAILED with 515 (no such file on the cell), 516 (the cell could
 * not read its files), 518 (timeout) or 521 (corrupted file: checksum or content wrong).
 *
 * Everything is in PostgreSQL with its deadline, so a request survives a restart: a request the
 * cell has not picked up yet is still delivered at its next poll, and a download in flight when
 * the process stops still completes if the cell uploads before its deadline; past the deadline
 * the sweep (every few seconds and at start) fails it with 518. Nothing is re-requested behind
 * the user's back: "Request again" does that.
 */
import { and, count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { z } from "zod";
import type { CellCommand } from "../grid/mod.ts";
import { AppError, type Db, type EventBus, type Logger } from "../../kernel/mod.ts";
import type { RecordingPageDto, RecordingStatus } from "./contract.ts";
import { EVENTS_PAGE_SIZE } from "./contract.ts";
import { eventKey } from "./keys.ts";
import "./events.ts";
import { recordings } from "./schema.ts";
import type { VoltageEventsService } from "./service.ts";

/** The command kind a cell sees. */
export const UPLOAD_COMMAND = "UPLOAD_EVENT_RECORDING";
/** The recording file format a cell uploads. */
export const RECORDING_FORMAT = "gridwatch-rms/1";
/** Largest recording file accepted (3 channels of a minute at 10 ms are about 60 kB). */
export const MAX_RECORDING_BYTES = 4 * 1024 * 1024;

/** Timeouts of a download (ms). */
export interface RecordingTimeouts {
  /** From the request until the cell picks it up (it polls every 60 s). */
  pickupMs: number;
  /** From the pick-up until the file is uploaded. */
  uploadMs: number;
}

export const DEFAULT_TIMEOUTS: RecordingTimeouts = { pickupMs: 5 * 60_000, uploadMs: 2 * 60_000 };

/** The uploaded recording (docs/cell-configuration.md, "Recording file"). */
export const recordingFile = z.strictObject({
  format: z.literal(RECORDING_FORMAT),
  event_id: z.string().min(1).max(200),
  first_sample: z.iso.datetime(),
  interval_ms: z.number().positive().max(60_000),
  frequency: z.union([z.literal(50), z.literal(60)]),
  channels: z.array(z.strictObject({
    phase: z.enum(["L1", "L2", "L3"]),
    unit: z.literal("V"),
    values: z.array(z.number().min(0).max(100_000)).min(1).max(200_000),
  })).min(1).max(3),
});
export type RecordingFile = z.output<typeof recordingFile>;

/** SHA-256 of bytes as lower-case hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

type Row = typeof recordings.$inferSelect;

export class RecordingsService {
  readonly #now: () => number;

  constructor(
    private readonly deps: {
      db: Db;
      bus: EventBus;
      logger: Logger;
      events: VoltageEventsService;
      timeouts?: RecordingTimeouts;
      now?: () => number;
    },
  ) {
    this.#now = deps.now ?? Date.now;
  }

  get #timeouts() {
    return this.deps.timeouts ?? DEFAULT_TIMEOUTS;
  }

  /**
   * POST /pqe/events/{key}/recording: asks the cell for the event's recording. A download
   * already on its way or done is left as it is; a failed one is asked again.
   */
  async request(customerKey: string, key: string, userId: string): Promise<RecordingStatus> {
    const { row: event } = await this.deps.events.find(customerKey, key);
    const now = new Date(this.#now());
    const deadline = new Date(now.getTime() + this.#timeouts.pickupMs);
    const fresh = {
      status: "REQUESTED" as const,
      code: null,
      requestedBy: userId,
      requestedAt: now,
      updatedAt: now,
      deadlineAt: deadline,
      payload: null,
      sha256: null,
      sizeBytes: null,
    };
    const [row] = await this.deps.db.insert(recordings).values({
      id: crypto.randomUUID(),
      customerKey,
      cellId: event.cellId,
      eventId: event.eventId,
      ...fresh,
    }).onConflictDoUpdate({
      target: [recordings.cellId, recordings.eventId],
      set: { ...fresh, id: sql`gen_random_uuid()::text` },
      setWhere: eq(recordings.status, "FAILED"),
    }).returning();
    if (row) return row.status;
    const [existing] = await this.deps.db.select({ status: recordings.status }).from(recordings)
      .where(and(eq(recordings.cellId, event.cellId), eq(recordings.eventId, event.eventId)));
    return existing?.status ?? "REQUESTED";
  }

  /**
   * The cell's pending uploads, for its configuration answer. The poll is the pick-up:
   * REQUESTED becomes DOWNLOADING with the upload deadline.
   */
  async commandsFor(cellId: string): Promise<CellCommand[]> {
    const now = new Date(this.#now());
    const open = await this.deps.db.select().from(recordings).where(and(
      eq(recordings.cellId, cellId),
      inArray(recordings.status, ["REQUESTED", "DOWNLOADING"]),
      sql`${recordings.deadlineAt} > ${now.toISOString()}`,
    ));
    const picked = open.filter((r) => r.status === "REQUESTED").map((r) => r.id);
    if (picked.length) {
      await this.deps.db.update(recordings).set({
        status: "DOWNLOADING",
        updatedAt: now,
        deadlineAt: new Date(now.getTime() + this.#timeouts.uploadMs),
      }).where(and(inArray(recordings.id, picked), eq(recordings.status, "REQUESTED")));
    }
    return open.map((r) => ({
      id: r.id,
      kind: UPLOAD_COMMAND,
      event_id: r.eventId,
      upload_path: `/ingest/v1/recordings/${r.id}`,
    }));
  }

  /** The cell's open request `id`, or 404 (another cell's id too). */
  async #open(cellId: string, id: string): Promise<Row> {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new AppError("common.notFound");
    const [row] = await this.deps.db.select().from(recordings)
      .where(and(eq(recordings.id, id), eq(recordings.cellId, cellId)));
    if (!row) throw new AppError("common.notFound");
    if (row.status !== "REQUESTED" && row.status !== "DOWNLOADING") {
      throw new AppError("common.conflict", { status: row.status });
    }
    return row;
  }

  /**
   * PUT /ingest/v1/recordings/{id}: the file and its SHA-256 (`X-Content-SHA256`). A file whose
   * checksum or content is wrong ends the download with 521; the cell is told so (422).
   */
  async upload(cellId: string, id: string, bytes: Uint8Array, checksum: string | null) {
    const row = await this.#open(cellId, id);
    const actual = await sha256Hex(bytes);
    let file: RecordingFile | null = null;
    if (checksum?.toLowerCase() === actual) {
      try {
        const parsed = recordingFile.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
        if (parsed.success && parsed.data.event_id === row.eventId) file = parsed.data;
      } catch {
        file = null;
      }
    }
    if (!file) {
      await this.#finish(row, "FAILED", 521);
      return { accepted: false as const };
    }
    await this.#finish(row, "DOWNLOADED", null, {
      payload: new TextDecoder().decode(bytes),
      sha256: actual,
      sizeBytes: bytes.length,
    });
    return { accepted: true as const };
  }

  /** POST /ingest/v1/recordings/{id}/failure: NOT_FOUND (515) or ERROR (516). */
  async failure(cellId: string, id: string, reason: "NOT_FOUND" | "ERROR"): Promise<void> {
    const row = await this.#open(cellId, id);
    await this.#finish(row, "FAILED", reason === "NOT_FOUND" ? 515 : 516);
  }

  /** Fails every open download past its deadline with 518; returns how many. */
  async sweep(): Promise<number> {
    const now = new Date(this.#now());
    const late = await this.deps.db.select().from(recordings).where(and(
      inArray(recordings.status, ["REQUESTED", "DOWNLOADING"]),
      lt(recordings.deadlineAt, now),
    ));
    for (const row of late) await this.#finish(row, "FAILED", 518);
    return late.length;
  }

  async #finish(
    row: Row,
    status: "DOWNLOADED" | "FAILED",
    code: number | null,
    file: { payload: string; sha256: string; sizeBytes: number } | null = null,
  ): Promise<void> {
    const [done] = await this.deps.db.update(recordings).set({
      status,
      code,
      updatedAt: new Date(this.#now()),
      ...(file ?? {}),
    }).where(and(
      eq(recordings.id, row.id),
      inArray(recordings.status, ["REQUESTED", "DOWNLOADING"]),
    )).returning({ id: recordings.id });
    if (!done) return; // ended meanwhile (a sweep and an upload at once)
    const places = await this.deps.events.places(row.customerKey).catch(() => new Map());
    const place = places.get(row.cellId);
    const found = await this.deps.events.rowOf(row.cellId, row.eventId);
    this.deps.bus.publish("voltageEvents.recordingFinished", {
      customerKey: row.customerKey,
      userId: row.requestedBy,
      cellId: row.cellId,
      eventKey: eventKey(row.cellId, row.eventId),
      eventStart: found ? new Date(found.startMs).toISOString() : "",
      nodeName: place?.nodeName ?? "",
      ewName: place?.ewName ?? "",
      status,
      code,
    });
    this.deps.logger.info("Event recording download ended", { id: row.id, status, code });
  }

  /** GET /pqe/recordings: the customer's recordings, newest change first, 12 per page. */
  async list(
    customerKey: string,
    page: number,
    status: RecordingStatus | undefined,
  ): Promise<RecordingPageDto> {
    const where = and(
      eq(recordings.customerKey, customerKey),
      status ? eq(recordings.status, status) : undefined,
    );
    const [total] = await this.deps.db.select({ n: count() }).from(recordings).where(where);
    const rows = await this.deps.db.select({
      cellId: recordings.cellId,
      eventId: recordings.eventId,
      requestedBy: recordings.requestedBy,
      sizeBytes: recordings.sizeBytes,
    }).from(recordings).where(where).orderBy(desc(recordings.updatedAt), desc(recordings.id))
      .limit(EVENTS_PAGE_SIZE).offset((page - 1) * EVENTS_PAGE_SIZE);
    const places = await this.deps.events.places(customerKey);
    const events = await this.deps.events.dtos(rows, places);
    return {
      recordings: rows.flatMap((r) => {
        const event = events.get(`${r.cellId}|${r.eventId}`);
        return event ? [{ event, requested_by: r.requestedBy, size_bytes: r.sizeBytes }] : [];
      }),
      page,
      page_size: EVENTS_PAGE_SIZE,
      total: total?.n ?? 0,
    };
  }

  /** The downloaded file of an event of the customer, or 404 (not downloaded: 404 too). */
  async file(customerKey: string, key: string) {
    const { row: event, place } = await this.deps.events.find(customerKey, key);
    const [row] = await this.deps.db.select().from(recordings).where(and(
      eq(recordings.cellId, event.cellId),
      eq(recordings.eventId, event.eventId),
      eq(recordings.status, "DOWNLOADED"),
    ));
    if (!row?.payload) throw new AppError("common.notFound");
    return { event, place, file: recordingFile.parse(JSON.parse(row.payload)) };
  }
}
