/** Calls of the data export API (/dem, docs/contracts.md); the screen shows failures itself. */
import { api } from "../../lib/api.ts";
import type {
  CreateExportBody,
  EstimateDto,
  ExportDto,
  ExportFeedersDto,
  ExportPageDto,
  LinkDto,
} from "../../../../modules/export/contract.ts";
import type { selectionBody } from "./export-form.ts";

export type { EstimateDto, ExportDto, ExportFeedersDto, ExportPageDto };

const quiet = { handleErrors: true } as const;

export const exportApi = {
  feeders: (signal: AbortSignal) => api.get<ExportFeedersDto>("/dem/feeders", { signal, ...quiet }),
  estimate: (body: ReturnType<typeof selectionBody>, signal: AbortSignal) =>
    api.post<EstimateDto>("/dem/exports/estimate", body, { signal, ...quiet }),
  create: (body: CreateExportBody) => api.post<{ key: string }>("/dem/exports", body, quiet),
  list: (signal: AbortSignal) =>
    api.get<ExportPageDto>("/dem/exports", { query: { page: 0, size: 50 }, signal, ...quiet }),
  cancel: (key: string) => api.post<ExportDto>(`/dem/exports/${key}/cancel`, {}, quiet),
  remove: (key: string) => api.delete<void>(`/dem/exports/${key}`, quiet),
  /** Starts the browser's download of the file through a signed link (streamed to disk). */
  async download(key: string): Promise<void> {
    const { url } = await api.post<LinkDto>(`/dem/exports/${key}/link`, {}, quiet);
    const link = document.createElement("a");
    link.href = url;
    link.rel = "noopener";
    document.body.append(link);
    link.click();
    link.remove();
  },
};
