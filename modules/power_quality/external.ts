/**
 * The reports as the external API (external_v1 pq, modules/api_clients) reads and creates them:
 * the same service, rules and codes as the /pqm screens (create: 401-403, 501, 505-513, 526;
 * downloads: 502 before completion, 523 without a PDF), with any page size instead of the
 * screens' 12 and the creator named by the caller (an API client is no user).
 */
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { Db } from "../../kernel/mod.ts";
import type {
  CreateReportInput,
  ReportAcceptedDto,
  ReportDetailDto,
  ReportDto,
  ReportResult,
  ReportStatus,
} from "./contract.ts";
import type { ReportCsv } from "./csv.ts";
import { reports } from "./schema.ts";
import { type ReportsService, toDto } from "./service.ts";

/** The filters and the window of a page of reports. */
export interface ReportWindow {
  offset: number;
  limit: number;
  status?: ReportStatus;
  result?: ReportResult;
  node?: string;
}

/** What the external API may do with a customer's reports. */
export interface ExternalReports {
  /** Newest first, like the screen's list. */
  page(customerKey: string, window: ReportWindow): Promise<{ items: ReportDto[]; total: number }>;
  /** `createdBy` names the caller in the report's row (an API client: `api-client:<id>`). */
  create(customerKey: string, createdBy: string, input: CreateReportInput): Promise<
    ReportAcceptedDto
  >;
  get(customerKey: string, key: string): Promise<ReportDetailDto>;
  pdf(customerKey: string, key: string): Promise<{ name: string; pdf: Uint8Array }>;
  /** The CSV of a report (its 10-minute values and results), as the screen downloads it. */
  csv(customerKey: string, key: string): Promise<{ name: string; text: string }>;
}

/** The facade over the module's service and CSV writer. */
export function externalReports(db: Db, service: ReportsService, csv: ReportCsv): ExternalReports {
  return {
    async page(customerKey, w) {
      const filters: SQL[] = [eq(reports.customerKey, customerKey)];
      if (w.status) filters.push(eq(reports.status, w.status));
      if (w.result) filters.push(eq(reports.result, w.result));
      if (w.node) filters.push(eq(reports.nodeId, w.node));
      const where = and(...filters);
      const rows = await db.select().from(reports).where(where)
        .orderBy(desc(reports.createdAt), desc(reports.key)).limit(w.limit).offset(w.offset);
      const [total] = await db.select({ n: count() }).from(reports).where(where);
      return { items: rows.map(toDto), total: Number(total?.n ?? 0) };
    },
    create: (customerKey, createdBy, input) =>
      service.create({ customerKey, userId: createdBy }, input),
    get: (customerKey, key) => service.get(customerKey, key),
    async pdf(customerKey, key) {
      const { row, pdf } = await service.pdf(customerKey, key);
      return { name: row.name, pdf };
    },
    async csv(customerKey, key) {
      const row = await service.row(customerKey, key);
      return { name: row.name, text: await csv.render(row) };
    },
  };
}
