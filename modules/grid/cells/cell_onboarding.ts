/**
 * Cell onboarding (docs/operations.md, "Onboarding cells"): an administrator registers a cell by
 * serial number, or imports a CSV of serial numbers, and the platform answers the credential
 * once; it can rotate and revoke it later. The one registration path of the product: the demo
 * seeds its cells through it too.
 *
 * Rules: serial numbers as `serialNumberRule` (contract.ts), unique across the installation (a
 * device belongs to one utility), stored in capitals. An import registers every cell of its
 * file or none: any problem (a bad line, a serial number repeated or already registered) answers
 * 400 with every problem by line and registers nothing. Only the SHA-256 of each 256-bit secret
 * is stored (credentials.ts); rotation and revocation take effect on the next batch
 * (CellsService clears its identity cache at once).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  AppError,
  type Db,
  type FieldIssue,
  fieldIssues,
  validationError,
} from "../../../kernel/mod.ts";
import type { CellsService } from "./cells.ts";
import {
  type CellCredentialDto,
  type CsvProblem,
  type DeviceModel,
  IMPORT_MAX_ISSUES,
  type ImportCellsInput,
  importCellsInput,
  type ImportedCellsDto,
  parseCellCsv,
  PROTOCOL_VERSION,
  type RegisterCellInput,
  registerCellInput,
  type RegistrationType,
} from "../contract.ts";
import { hashSecret, newSecret } from "./credentials.ts";
import { cells } from "../schema.ts";

/** Rows inserted per statement (14 columns each, far below PostgreSQL's 65,535 parameters). */
const INSERT_CHUNK = 500;

/** The input of a schema, or 400 with its field errors (the service's own check). */
function parsed<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(fieldIssues(result.error.issues, input));
  return result.data;
}

/** True for PostgreSQL's unique violation (also when drizzle wraps it). */
function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as never) {
    if (e.code === "23505") return true;
  }
  return false;
}

/** `C` + the last 12 letters and digits of the serial number (`GW-2026-0001` -> CGW20260001). */
export function baseCellId(serial: string): string {
  return `C${serial.replace(/[^A-Za-z0-9]/g, "").slice(-12)}`;
}

/** The first id of `base`, `base-2`, `base-3`, ... not in `taken` (which it then holds). */
export function freeCellId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** A line problem as a field error of `common.validation`. */
function issueOf(problem: CsvProblem): FieldIssue {
  return {
    path: problem.line === null ? "csv" : `csv.${problem.line}`,
    key: problem.key,
    params: problem.params ?? {},
  };
}

interface NewCell {
  serial_number: string;
  device_model: DeviceModel;
}

/** Registers cells and manages their credentials. */
export class CellOnboardingService {
  readonly #ingestUrl: string;
  readonly #configurationUrl: string;

  constructor(
    private readonly db: Db,
    private readonly cells: Pick<CellsService, "rotateCredential" | "revoke">,
    options: { publicUrl: string },
  ) {
    const base = options.publicUrl.replace(/\/$/, "");
    this.#ingestUrl = `${base}/ingest/v1/batches`;
    this.#configurationUrl = `${base}/ingest/v1/configuration`;
  }

  /** Registers one cell; 409 `setup.cellSerialExists` when its serial number is registered. */
  async register(customerKey: string, input: RegisterCellInput): Promise<CellCredentialDto> {
    const { serial_number, device_model, type } = parsed(registerCellInput, input);
    const { issued, taken } = await this.#insert(
      customerKey,
      [{ serial_number, device_model }],
      type,
    );
    if (taken.length) throw new AppError("setup.cellSerialExists", { serial_number });
    return issued[0]!;
  }

  /**
   * Registers every cell of a CSV text or none: 400 `common.validation` with the problems by
   * line (`csv.<line>`, at most IMPORT_MAX_ISSUES and then one `csv` issue with how many more).
   */
  async importCsv(customerKey: string, input: ImportCellsInput): Promise<ImportedCellsDto> {
    const { csv, device_model, type } = parsed(importCellsInput, input);
    const { cells: lines, problems } = parseCellCsv(csv, device_model);
    if (!problems.length) {
      const { issued, taken } = await this.#insert(customerKey, lines, type);
      if (!taken.length) return { count: issued.length, cells: issued };
      const lineOf = new Map(lines.map((l) => [l.serial_number, l.line]));
      for (const serial of taken) {
        const line = lineOf.get(serial)!;
        problems.push({
          key: "setup.cellSerialExists",
          params: { line, serial_number: serial },
          line,
        });
      }
    }
    problems.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
    const issues = problems.slice(0, IMPORT_MAX_ISSUES).map(issueOf);
    if (problems.length > IMPORT_MAX_ISSUES) {
      issues.push({
        path: "csv",
        key: "validation.csvMoreProblems",
        params: { count: problems.length - IMPORT_MAX_ISSUES },
      });
    }
    throw validationError(issues);
  }

  /** Issues a new credential (the old one stops at once); also reinstates a revoked cell. */
  async rotate(customerKey: string, cellId: string): Promise<CellCredentialDto> {
    const row = await this.#row(customerKey, cellId);
    const at = new Date();
    const credential = await this.cells.rotateCredential(cellId, at);
    return this.#dto(row, credential, at);
  }

  /** Refuses every further batch and configuration poll of the cell until a rotation. */
  async revoke(customerKey: string, cellId: string): Promise<void> {
    await this.#row(customerKey, cellId);
    await this.cells.revoke(cellId);
  }

  async #row(customerKey: string, cellId: string) {
    const [row] = await this.db.select({
      id: cells.id,
      serialNumber: cells.serialNumber,
      deviceModel: cells.deviceModel,
      type: cells.type,
    }).from(cells).where(and(eq(cells.id, cellId), eq(cells.customerKey, customerKey)));
    if (!row) throw new AppError("common.notFound");
    return row;
  }

  #dto(
    row: {
      id: string;
      serialNumber: string;
      deviceModel: DeviceModel;
      type: CellCredentialDto["type"];
    },
    credential: string,
    at: Date,
  ): CellCredentialDto {
    return {
      cell_id: row.id,
      serial_number: row.serialNumber,
      device_model: row.deviceModel,
      type: row.type,
      credential,
      issued_at: at.toISOString(),
      ingest_url: this.#ingestUrl,
      configuration_url: this.#configurationUrl,
      protocol_version: PROTOCOL_VERSION,
    };
  }

  /**
   * Inserts the cells in one transaction with fresh credentials, unless a serial number is
   * registered already: then nothing is inserted and `taken` names them.
   */
  async #insert(
    customerKey: string,
    list: readonly NewCell[],
    type: RegistrationType,
  ): Promise<{ issued: CellCredentialDto[]; taken: string[] }> {
    const serials = list.map((c) => c.serial_number);
    try {
      return await this.db.transaction(async (tx) => {
        const taken = (await tx.select({ serial: cells.serialNumber }).from(cells)
          .where(inArray(cells.serialNumber, serials))).map((r) => r.serial);
        if (taken.length) return { issued: [], taken };
        const bases = [...new Set(serials.map(baseCellId))];
        const ids = new Set((await tx.select({ id: cells.id }).from(cells)
          .where(inArray(sql`split_part(${cells.id}, '-', 1)`, bases))).map((r) => r.id));
        const at = new Date();
        const issued: CellCredentialDto[] = [];
        const rows: (typeof cells.$inferInsert)[] = [];
        for (const cell of list) {
          const id = freeCellId(baseCellId(cell.serial_number), ids);
          const secret = newSecret();
          rows.push({
            id,
            customerKey,
            serialNumber: cell.serial_number,
            type,
            status: type === "IN_STOCK" ? "READY_FOR_CONFIGURATION" : "FIELD_INSTALLATION",
            provisioningDate: at,
            credentialHash: await hashSecret(secret),
            credentialIssuedAt: at,
            revoked: false,
            mapping: {},
            deviceModel: cell.device_model,
          });
          issued.push(this.#dto(
            {
              id,
              serialNumber: cell.serial_number,
              deviceModel: cell.device_model,
              type,
            },
            `${id}.${secret}`,
            at,
          ));
        }
        for (let k = 0; k < rows.length; k += INSERT_CHUNK) {
          await tx.insert(cells).values(rows.slice(k, k + INSERT_CHUNK));
        }
        return { issued, taken: [] };
      });
    } catch (error) {
      // A registration of the same serial number or id that ran at the same moment.
      if (isUniqueViolation(error)) {
        const taken = (await this.db.select({ serial: cells.serialNumber }).from(cells)
          .where(inArray(cells.serialNumber, serials))).map((r) => r.serial);
        if (taken.length) return { issued: [], taken };
        throw new AppError("common.conflict");
      }
      throw error;
    }
  }
}
