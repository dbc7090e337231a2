/** The cells and mapping calls (docs/contracts.md, "Cells and mapping calls") and their shapes. */
import type {
  CellCredentialDto,
  CredentialState,
  ImportCellsInput,
  ImportedCellsDto,
  RegisterCellInput,
} from "../../../../../modules/grid/contract.ts";
import { api } from "../../../lib/api.ts";
import type { IoModuleType, Phase } from "./cells-rules.ts";

export type { CellCredentialDto, CredentialState, ImportedCellsDto };

export const CELL_CATEGORIES = ["WAITING_FOR_INSTALLATION", "IN_STOCK", "INSTALLED"] as const;
export type CellCategory = (typeof CELL_CATEGORIES)[number];

export interface SetupCell {
  id: string;
  serial_number: string;
  type: CellCategory;
  status: string;
  /** Display label key (namespace `cells`, `status.<label>`), chosen by the server. */
  status_label: string;
  connection: "CONNECTED" | "DISCONNECTED";
  mapping_status: "TO_BE_CONFIGURED" | "IN_PROGRESS" | "CONFIGURED";
  mapping_status_label: string;
  device_model: "GW4" | "DTVI";
  gps_fix: string | null;
  gsm_signal: string | null;
  firmware: string | null;
  last_seen: string | null;
  provisioning_date: string;
  custom_message: string | null;
  node: { id: string; name: string; electrical_work_name: string; type: string } | null;
  mapping_version: number;
  mapping_acked_version: number;
  /** ACTIVE: the cell can send; REVOKED: refused until a new credential is issued. */
  credential_state: CredentialState;
  credential_issued_at: string | null;
}

export interface CellPage {
  items: SetupCell[];
  total: number;
  page: number;
  page_size: number;
}

export interface LinkableNode {
  id: string;
  name: string;
  electrical_work_name: string;
  electrical_work_type: string;
  lv_group_name: string;
  compatible: boolean;
  cell_id: string | null;
}

export interface FeederMapping {
  id: string;
  slot: number;
  name: string;
  type: string;
  mv_estimation: boolean;
  phases: Record<Phase, number | null>;
}

export type Verdict =
  | "CORRECT"
  | "CANNOT_BE_VERIFIED"
  | "SHIFT_RIGHT"
  | "SHIFT_LEFT"
  | "INVERT_L2_L3"
  | "INVERT_L1_L3"
  | "INVERT_L1_L2"
  | "COIL_DIRECTION"
  | "TWO_PHASES_ZERO"
  | "NOT_ENOUGH_MEASUREMENTS"
  | "ALL_ZERO"
  | "TIMEOUT";

export interface Validation {
  at: string;
  verdict: Verdict;
  certainty: "CERTAIN" | "NOT_CERTAIN" | "NO_CONCLUSION";
  /** Text key of the `errors` namespace (spec 8.1 texts). */
  message_key: string;
  more_measurements: number;
  feeders: {
    feeder_id: string;
    slot: number;
    verdict: Verdict;
    certainty: Validation["certainty"];
    message_key: string;
    likely: Verdict | null;
  }[];
}

export interface CellMapping {
  cell_id: string;
  node_id: string;
  version: number;
  acked_version: number;
  synchronized: boolean;
  feeders: FeederMapping[];
  validation: Validation | null;
}

export interface SavedMapping {
  mapping: CellMapping;
  delivery: { state: "PENDING" } | { state: "FAILED"; code: 114; key: string };
}

export interface IoModule {
  id: string;
  name: string;
  module_type: IoModuleType;
  system_type: string;
  size: number;
  resolution: number;
  used_by: number;
}

export interface CellIo {
  supported: boolean;
  unsupported_reason: "DTVI" | "UNMETERED_NODE" | null;
  modules: (IoModule & { slot: number; active: boolean })[];
  thresholds: Record<IoModuleType, number>;
  deactivated?: string[];
}

const quiet = { handleErrors: true } as const;
const cell = (id: string) => `/gsm/cells/${encodeURIComponent(id)}`;

export const cellsApi = {
  list: (category: CellCategory, page: number, signal?: AbortSignal) =>
    api.get<CellPage>("/gsm/cells", { query: { category, page }, ...(signal ? { signal } : {}) }),
  search: (q: string, signal?: AbortSignal) =>
    api.get<SetupCell[]>("/gsm/cells/search", { query: { q }, ...(signal ? { signal } : {}) }),
  get: (id: string) => api.get<SetupCell>(cell(id), quiet),
  linkableNodes: () => api.get<LinkableNode[]>("/gsm/cells/linkable-nodes"),
  setMessage: (id: string, message: string | null) =>
    api.put<SetupCell>(`${cell(id)}/message`, { message }, quiet),
  takeFromStock: (id: string) => api.post<SetupCell>(`${cell(id)}/take-from-stock`, {}, quiet),
  link: (id: string, nodeId: string) =>
    api.post<SetupCell>(`${cell(id)}/link`, { node_id: nodeId }, quiet),
  unlink: (id: string) => api.post<SetupCell>(`${cell(id)}/unlink`, {}, quiet),
  mapping: (id: string) => api.get<CellMapping>(`${cell(id)}/mapping`),
  saveMapping: (
    id: string,
    entries: { node_id: string; feeder_id: string; probe: number; phase: Phase }[],
  ) => api.put<SavedMapping>(`${cell(id)}/mapping`, { entries }, quiet),
  validate: (id: string) => api.post<Validation>(`${cell(id)}/mapping/validate`, {}, quiet),
  confirm: (id: string) => api.post<SetupCell>(`${cell(id)}/mapping/confirm`, {}, quiet),
  ignore: (id: string) => api.post<SetupCell>(`${cell(id)}/mapping/ignore`, {}, quiet),
  /** Cell onboarding: the answers carry the credential, shown once. */
  register: (body: RegisterCellInput) => api.post<CellCredentialDto>("/gsm/cells", body, quiet),
  importCsv: (body: ImportCellsInput) =>
    api.post<ImportedCellsDto>("/gsm/cells/import", body, quiet),
  rotateCredential: (id: string) =>
    api.post<CellCredentialDto>(`${cell(id)}/credential`, {}, quiet),
  revokeCredential: (id: string) => api.delete<SetupCell>(`${cell(id)}/credential`, quiet),
  modules: () => api.get<IoModule[]>("/gsm/io-modules"),
  createModule: (body: {
    name: string;
    module_type: IoModuleType;
    system_type: string;
    size: number;
    resolution: number;
  }) => api.post<IoModule>("/gsm/io-modules", body, quiet),
  deleteModule: (id: string) =>
    api.delete<void>(`/gsm/io-modules/${encodeURIComponent(id)}`, quiet),
  cellModules: (id: string) => api.get<CellIo>(`${cell(id)}/io-modules`, quiet),
  activateModule: (id: string, moduleId: string) =>
    api.post<CellIo>(`${cell(id)}/io-modules`, { module_id: moduleId }, quiet),
  deactivateModule: (id: string, moduleId: string) =>
    api.delete<CellIo>(`${cell(id)}/io-modules/${encodeURIComponent(moduleId)}`, quiet),
};
