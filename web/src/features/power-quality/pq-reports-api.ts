/**
 * Calls of the power-quality reports API (/pqm, docs/contracts.md). The screen explains every
 * refusal itself (codes 401-403, 501-526), so no call leads to an error page.
 */
import { api, apiBlob } from "../../lib/api.ts";
import type {
  CreateReportInput,
  LimitSetsDto,
  PqElectricalWorksDto,
  ReportAcceptedDto,
  ReportDetailDto,
  ReportDto,
  ReportPageDto,
  ReportStatus,
} from "../../../../modules/power_quality/contract.ts";

export type {
  FeederSummaryDto,
  ParameterSummaryDto,
  PqElectricalWorksDto,
  PqLimits,
  ReportDetailDto,
  ReportDto,
  ReportPageDto,
  ReportStatus,
} from "../../../../modules/power_quality/contract.ts";

const handleErrors = true;

export const pqApi = {
  works: (signal: AbortSignal) =>
    api.get<PqElectricalWorksDto>("/pqm/electrical-works", { signal, handleErrors }),
  list: (
    query: { page: number; status?: ReportStatus | undefined; q?: string | undefined },
    signal: AbortSignal,
  ) => api.get<ReportPageDto>("/pqm/reports", { query, signal, handleErrors }),
  get: (key: string, signal: AbortSignal) =>
    api.get<ReportDetailDto>(`/pqm/reports/${encodeURIComponent(key)}`, { signal, handleErrors }),
  limitSets: (signal: AbortSignal) =>
    api.get<LimitSetsDto>("/pqm/limit-sets", { signal, handleErrors }),
  create: (input: CreateReportInput) =>
    api.post<ReportAcceptedDto>("/pqm/reports", input, { handleErrors }),
  cancel: (key: string) =>
    api.post<ReportDto>(`/pqm/reports/${encodeURIComponent(key)}/cancel`, undefined, {
      handleErrors,
    }),
  remove: (key: string) =>
    api.delete<void>(`/pqm/reports/${encodeURIComponent(key)}`, { handleErrors }),
  file: (key: string, kind: "pdf" | "csv") =>
    apiBlob(`/pqm/reports/${encodeURIComponent(key)}/${kind}`),
};

/** Saves a blob under a file name (the browser's download). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
