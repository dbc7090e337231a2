/** The acm calls (docs/contracts.md, "API clients: /acm"). */
import { api, apiRequest } from "../../lib/api.ts";
import type {
  ApiClientListDto as ApiClientList,
  ApiClientSecretDto as ApiClientSecret,
  AuditPageDto as AuditPage,
  Permission,
} from "../../../../modules/api_clients/contract.ts";

export type { ApiClientList, ApiClientSecret, AuditPage, Permission };
export type { ApiClientDto as ApiClient } from "../../../../modules/api_clients/contract.ts";

export const apiClientsApi = {
  list: (signal?: AbortSignal) => api.get<ApiClientList>("/acm/clients", signal ? { signal } : {}),
  create: (name: string, permission: Permission) =>
    api.post<ApiClientSecret>("/acm/clients", { name, permission }, { handleErrors: true }),
  rotate: (id: string) =>
    api.post<ApiClientSecret>(`/acm/clients/${encodeURIComponent(id)}/secret`, undefined, {
      handleErrors: true,
    }),
  remove: (id: string, name: string) =>
    apiRequest<void>(`/acm/clients/${encodeURIComponent(id)}`, {
      method: "DELETE",
      body: { name },
      handleErrors: true,
    }),
  audit: (signal?: AbortSignal) =>
    api.get<AuditPage>("/acm/audit", { query: { limit: 50 }, ...(signal ? { signal } : {}) }),
};
