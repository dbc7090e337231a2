/** The cells and mapping calls (docs/contracts.md, "Cells and mapping calls") and their shapes. */
import type {
  CellCategory,
  CellCredentialDto,
  CellIoDto,
  CellPage,
  CredentialState,
  ImportCellsInput,
  ImportedCellsDto,
  IoModuleDto,
  IoModuleInput,
  LinkableNodeDto,
  MappingDto,
  MappingEntry,
  RegisterCellInput,
  SavedMappingDto,
  SetupCellDto,
  ValidationDto,
} from "../../../../../modules/grid/contract.ts";
import { api } from "../../../lib/api.ts";

export type { CellCredentialDto, CredentialState, ImportedCellsDto };

/** The cells' shapes, under the names the screens use (never copied). */
export type {
  CellCategory,
  CellIoDto as CellIo,
  CellPage,
  FeederMappingDto as FeederMapping,
  IoModuleDto as IoModule,
  LinkableNodeDto as LinkableNode,
  MappingDto as CellMapping,
  MappingVerdict as Verdict,
  SavedMappingDto as SavedMapping,
  SetupCellDto as SetupCell,
  ValidationDto as Validation,
} from "../../../../../modules/grid/contract.ts";

const quiet = { handleErrors: true } as const;
const cell = (id: string) => `/gsm/cells/${encodeURIComponent(id)}`;

export const cellsApi = {
  list: (category: CellCategory, page: number, signal?: AbortSignal) =>
    api.get<CellPage>("/gsm/cells", { query: { category, page }, ...(signal ? { signal } : {}) }),
  search: (q: string, signal?: AbortSignal) =>
    api.get<SetupCellDto[]>("/gsm/cells/search", { query: { q }, ...(signal ? { signal } : {}) }),
  get: (id: string) => api.get<SetupCellDto>(cell(id), quiet),
  linkableNodes: () => api.get<LinkableNodeDto[]>("/gsm/cells/linkable-nodes"),
  setMessage: (id: string, message: string | null) =>
    api.put<SetupCellDto>(`${cell(id)}/message`, { message }, quiet),
  takeFromStock: (id: string) => api.post<SetupCellDto>(`${cell(id)}/take-from-stock`, {}, quiet),
  link: (id: string, nodeId: string) =>
    api.post<SetupCellDto>(`${cell(id)}/link`, { node_id: nodeId }, quiet),
  unlink: (id: string) => api.post<SetupCellDto>(`${cell(id)}/unlink`, {}, quiet),
  mapping: (id: string) => api.get<MappingDto>(`${cell(id)}/mapping`),
  saveMapping: (id: string, entries: MappingEntry[]) =>
    api.put<SavedMappingDto>(`${cell(id)}/mapping`, { entries }, quiet),
  validate: (id: string) => api.post<ValidationDto>(`${cell(id)}/mapping/validate`, {}, quiet),
  confirm: (id: string) => api.post<SetupCellDto>(`${cell(id)}/mapping/confirm`, {}, quiet),
  ignore: (id: string) => api.post<SetupCellDto>(`${cell(id)}/mapping/ignore`, {}, quiet),
  /** Cell onboarding: the answers carry the credential, shown once. */
  register: (body: RegisterCellInput) => api.post<CellCredentialDto>("/gsm/cells", body, quiet),
  importCsv: (body: ImportCellsInput) =>
    api.post<ImportedCellsDto>("/gsm/cells/import", body, quiet),
  rotateCredential: (id: string) =>
    api.post<CellCredentialDto>(`${cell(id)}/credential`, {}, quiet),
  revokeCredential: (id: string) => api.delete<SetupCellDto>(`${cell(id)}/credential`, quiet),
  modules: () => api.get<IoModuleDto[]>("/gsm/io-modules"),
  createModule: (body: IoModuleInput) => api.post<IoModuleDto>("/gsm/io-modules", body, quiet),
  deleteModule: (id: string) =>
    api.delete<void>(`/gsm/io-modules/${encodeURIComponent(id)}`, quiet),
  cellModules: (id: string) => api.get<CellIoDto>(`${cell(id)}/io-modules`, quiet),
  activateModule: (id: string, moduleId: string) =>
    api.post<CellIoDto>(`${cell(id)}/io-modules`, { module_id: moduleId }, quiet),
  deactivateModule: (id: string, moduleId: string) =>
    api.delete<CellIoDto>(`${cell(id)}/io-modules/${encodeURIComponent(moduleId)}`, quiet),
};
