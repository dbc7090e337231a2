/**
 * The measuring range of an analog input module: `PATCH /gsm/io-modules/{id}` sets or removes
 * it (a new module takes it in its creation body, cells-api.ts `createModule`).
 */
import type { IoModuleDto, IoScale } from "../../../../../modules/grid/contract.ts";
import { api } from "../../../lib/api.ts";

export { IO_SCALE, type IoScale, ioScaleInput } from "../../../../../modules/grid/contract.ts";

export const ioModulesApi = {
  setScale: (id: string, scale: IoScale | null) =>
    api.patch<IoModuleDto>(`/gsm/io-modules/${encodeURIComponent(id)}`, { scale }, {
      handleErrors: true,
    }),
};
