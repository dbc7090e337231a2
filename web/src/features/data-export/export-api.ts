/** Calls of the data export API (/dem, docs/contracts.md); the screen shows failures itself. */
import { api } from "../../lib/api.ts";
import type {
  CreateExportBody,
  EstimateDto,
  ExportDto,
  ExportFeedersDto,
  ExportPageDto,
  LinkDto,
  ScheduleBody,
  ScheduleDto,
  SchedulesDto,
} from "../../../../modules/export/contract.ts";
import type { estimateBody } from "./export-form.ts";

export type { EstimateDto, ExportDto, ExportFeedersDto, ExportPageDto, ScheduleDto };

const quiet = { handleErrors: true } as const;

export const exportApi = {
  feeders: (signal: AbortSignal) => api.get<ExportFeedersDto>("/dem/feeders", { signal, ...quiet }),
  estimate: (body: ReturnType<typeof estimateBody>, signal: AbortSignal) =>
    api.post<EstimateDto>("/dem/exports/estimate", body, { signal, ...quiet }),
  create: (body: CreateExportBody) => api.post<{ key: string }>("/dem/exports", body, quiet),
  list: (signal: AbortSignal) =>
    api.get<ExportPageDto>("/dem/exports", { query: { page: 0, size: 50 }, signal, ...quiet }),
  cancel: (key: string) => api.post<ExportDto>(`/dem/exports/${key}/cancel`, {}, quiet),
  remove: (key: string) => api.delete<void>(`/dem/exports/${key}`, quiet),
  schedules: (signal: AbortSignal) => api.get<SchedulesDto>("/dem/schedules", { signal, ...quiet }),
  schedule: (body: ScheduleBody) => api.post<ScheduleDto>("/dem/schedules", body, quiet),
  updateSchedule: (key: string, body: ScheduleBody) =>
    api.put<ScheduleDto>(`/dem/schedules/${key}`, body, quiet),
  /** Runs a schedule now: its last whole period as a new export. */
  runSchedule: (key: string) => api.post<{ key: string }>(`/dem/schedules/${key}/run`, {}, quiet),
  removeSchedule: (key: string) => api.delete<void>(`/dem/schedules/${key}`, quiet),
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
