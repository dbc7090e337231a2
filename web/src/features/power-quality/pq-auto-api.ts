/**
 * Calls of auto-analyses and of the grid-wide compliance view (/pqm, docs/contracts.md). The
 * screen explains every refusal itself (503, 505, 506, 513, 520, field issues).
 */
import { api } from "../../lib/api.ts";
import type {
  AutoAnalysesDto,
  AutoAnalysisBody,
  AutoAnalysisDto,
  AutoRunDto,
  AutoRunPageDto,
  ComplianceDto,
  ComplianceMapDto,
  ComplianceVerdict,
} from "../../../../modules/power_quality/auto/contract.ts";
import type { StationGroupDto } from "../../../../modules/grid/contract.ts";

export type {
  AutoAnalysesDto,
  AutoAnalysisBody,
  AutoAnalysisDto,
  AutoRunDto,
  AutoRunPageDto,
  ComplianceDto,
  ComplianceMapNodeDto,
  ComplianceNodeDto,
} from "../../../../modules/power_quality/auto/contract.ts";

const handleErrors = true;
const at = (key: string) => `/pqm/auto-analyses/${encodeURIComponent(key)}`;

export const autoApi = {
  list: (signal: AbortSignal) =>
    api.get<AutoAnalysesDto>("/pqm/auto-analyses", { signal, handleErrors }),
  create: (body: AutoAnalysisBody) =>
    api.post<AutoAnalysisDto>("/pqm/auto-analyses", body, { handleErrors }),
  action: (key: string, action: "pause" | "resume" | "run") =>
    api.post<AutoAnalysisDto | AutoRunDto>(`${at(key)}/${action}`, undefined, { handleErrors }),
  remove: (key: string) => api.delete<void>(at(key), { handleErrors }),
  runs: (key: string, page: number, signal: AbortSignal) =>
    api.get<AutoRunPageDto>(`${at(key)}/runs`, { query: { page }, signal, handleErrors }),
  /** One page (0-based) of a week's nodes with a verdict. */
  compliance: (
    query: { week: string | undefined; verdict: ComplianceVerdict; page: number },
    signal: AbortSignal,
  ) => api.get<ComplianceDto>("/pqm/compliance", { query, signal, handleErrors }),
  /** Every node of a week with its verdict and place. */
  complianceMap: (week: string | undefined, signal: AbortSignal) =>
    api.get<ComplianceMapDto>("/pqm/compliance/map", { query: { week }, signal, handleErrors }),
  /** The grid's LV and MV feeder groups, for a whole-group analysis. */
  groups: (signal: AbortSignal) =>
    api.get<StationGroupDto[]>("/gsm/grid-structure/hv-mv-station-groups", {
      signal,
      handleErrors,
    }),
  evaluate: () =>
    api.post<{ week: string; status: string }>("/pqm/compliance/evaluate", undefined, {
      handleErrors,
    }),
};
