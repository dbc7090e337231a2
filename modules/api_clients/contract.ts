/**
 * The API clients contract (acm): the client entity of spec 3 (name, permission, client ID,
 * secret), the permissions and the scopes they carry, the limits, the calls' inputs and answers,
 * and the audit log's rows. Shared with the web app (types with `import type`). Pure: imports only
 * zod.
 */
import { z } from "zod";
import { nodeDto, stationGroupDto } from "../grid/contract.ts";
import { pageOf } from "./external/contract.ts";

/** Spec 6: Read (data and objects) or Write (write and read). */
export const PERMISSIONS = ["read", "write"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The scopes of external_v1 (spec 3). */
export const SCOPES = [
  "api:read:data",
  "api:read:grid-elements",
  "api:write:data",
  "api:write:grid-elements",
] as const;
export type Scope = (typeof SCOPES)[number];

/** The scopes each permission carries: Write adds the write scopes to Read's. */
export const PERMISSION_SCOPES: Readonly<Record<Permission, readonly Scope[]>> = Object.freeze({
  read: ["api:read:data", "api:read:grid-elements"],
  write: ["api:read:data", "api:read:grid-elements", "api:write:data", "api:write:grid-elements"],
});

/** A client's name: 3 to 60 characters after trimming. */
export const CLIENT_NAME = Object.freeze({ min: 3, max: 60 });

/** Spec 9: the configured defaults (API_MAX_CLIENTS, API_TOKENS_PER_MONTH). */
export const DEFAULT_LIMITS = Object.freeze({ clients: 5, tokensPerMonth: 1000 });

const name = z.string().trim()
  .min(CLIENT_NAME.min, "validation.nameMin")
  .max(CLIENT_NAME.max, "validation.nameMax");

/** `POST /acm/clients`. */
export const createClientInput = z.strictObject({
  name,
  permission: z.enum(PERMISSIONS),
});
export type CreateClientInput = z.output<typeof createClientInput>;

/** `DELETE /acm/clients/{id}`: the client's name typed again (spec 5). */
export const deleteClientInput = z.strictObject({ name: z.string().max(200) });
export type DeleteClientInput = z.output<typeof deleteClientInput>;

/** `{id}` of the client calls. */
export const clientParam = z.strictObject({ id: z.string().min(1).max(64) });

/** One client as /api-settings lists it (never its secret). */
export const apiClientDto = z.object({
  id: z.string(),
  name: z.string(),
  permission: z.enum(PERMISSIONS),
  client_id: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  created_at: z.string(),
  rotated_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  tokens_this_month: z.number().int(),
}).meta({ id: "ApiClientDto" });
export type ApiClientDto = z.output<typeof apiClientDto>;

/** `GET /acm/clients`: the customer's clients and the limits that apply. */
export const apiClientListDto = z.object({
  clients: z.array(apiClientDto),
  limits: z.object({ clients: z.number().int(), tokens_per_month: z.number().int() }),
  /** Tokens the customer's clients got this calendar month (UTC). */
  tokens_this_month: z.number().int(),
  /** The token endpoint clients use (client credentials). */
  token_url: z.string(),
}).meta({ id: "ApiClientListDto" });
export type ApiClientListDto = z.output<typeof apiClientListDto>;

/** The answer of a creation or rotation: the secret, shown this once. */
export const apiClientSecretDto = z.object({
  id: z.string(),
  client_id: z.string(),
  client_secret: z.string(),
}).meta({ id: "ApiClientSecretDto" });
export type ApiClientSecretDto = z.output<typeof apiClientSecretDto>;

/** `GET /acm/audit`: newest first. */
export const auditQuery = z.strictObject({
  before: z.string().regex(/^\d{1,18}$/).transform(Number).optional(),
  limit: z.string().regex(/^\d{1,3}$/).transform(Number).pipe(z.number().int().min(1).max(200))
    .optional(),
});

/** One call of an API client on /external. */
export const auditEntryDto = z.object({
  id: z.number().int(),
  client_id: z.string(),
  client_name: z.string().nullable(),
  method: z.string(),
  route: z.string(),
  status: z.number().int(),
  duration_ms: z.number().int(),
  at: z.string(),
}).meta({ id: "AuditEntryDto" });
export type AuditEntryDto = z.output<typeof auditEntryDto>;

export const auditPageDto = z.object({
  entries: z.array(auditEntryDto),
  /** Pass as `before` for the next (older) page; null at the end. */
  next: z.number().int().nullable(),
}).meta({ id: "AuditPageDto" });
export type AuditPageDto = z.output<typeof auditPageDto>;

/** The calendar month (UTC) of an instant, `YYYY-MM`: the token quota's period. */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** Whether `typed` names the client (delete confirmation): exact, after trimming. */
export function confirmsName(typed: string, clientName: string): boolean {
  return typed.trim() === clientName;
}

export * from "./external/contract.ts";

/** `GET /external/v1/gsm/station-groups`: the whole structure, station groups down to feeders. */
export const externalStructureDto = z.array(stationGroupDto).meta({ id: "ExternalStructure" });

/** `GET /external/v1/gsm/nodes`. */
export const externalNodePageDto = pageOf(nodeDto, "ExternalNodePage");

/**
 * The grid's setup inputs and answers: gsm writes of external_v1 take the bodies of the
 * Infrastructure Setup screen and answer the same (the same rules and error codes).
 */
export {
  deletedNodeDto,
  feederChangeDto,
  feederInput,
  groupNameInput,
  lvGroupAnswer,
  mvFeederGroupAnswer,
  newLvGroupInput,
  newMvFeederGroupInput,
  newNodeInput,
  nodeUpdateInput,
  setupNodeDto,
  stationGroupAnswer,
  stationGroupInput,
} from "../grid/contract.ts";

// ---- external_v1 pq: the power-quality modules' own schemas (the screens' rules and answers) --

export {
  createReportInput,
  REPORT_RESULTS,
  REPORT_STATUSES,
  reportAcceptedDto,
  reportDetailDto,
  reportDto,
} from "../power_quality/contract.ts";
export {
  eventDetailDto,
  eventDto,
  RECORDING_FORMATS,
  recordingStateDto,
  strictEventFilter,
} from "../voltage_events/contract.ts";
