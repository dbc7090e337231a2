/**
 * The measuring range of analog input modules (PATCH /gsm/io-modules/{id}, and the `scale` of a
 * new module): the module answers carry it beside the fields of cells-api.ts.
 */
import { api } from "../../lib/api.ts";
import type { IoModule } from "./cells-api.ts";
import type { IoModuleType } from "./cells-rules.ts";
import type { IoScale } from "../../../../modules/grid/validation.ts";

export { IO_SCALE, type IoScale, ioScaleIssues } from "../../../../modules/grid/validation.ts";

/** A module definition with its measuring range (null: the raw signal is shown). */
export type ScaledIoModule = IoModule & { scale?: IoScale | null };

const quiet = { handleErrors: true } as const;

export const ioModulesApi = {
  create: (body: {
    name: string;
    module_type: IoModuleType;
    system_type: string;
    size: number;
    resolution: number;
    scale: IoScale | null;
  }) => api.post<ScaledIoModule>("/gsm/io-modules", body, quiet),
  setScale: (id: string, scale: IoScale | null) =>
    api.patch<ScaledIoModule>(`/gsm/io-modules/${encodeURIComponent(id)}`, { scale }, quiet),
};
