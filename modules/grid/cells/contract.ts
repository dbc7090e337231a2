/**
 * The cells' contract: cell onboarding (register, import, credential), the cells screens of the
 * infrastructure setup (lists, search, custom message, link, unlink), the line mapping and its
 * validation, and the I/O configuration (docs/contracts.md, "Cells and mapping calls", "Cell
 * onboarding"). Pure: imports only zod, the structure's contract and the onboarding rules.
 */
import { z } from "zod";
import { ELECTRICAL_WORK_TYPES, gridName } from "../structure/contract.ts";
import { FORBIDDEN_NAME_CHARS, numeric } from "../structure/validation.ts";
import {
  DEVICE_MODELS,
  IMPORT_MAX_CHARS,
  normalizeSerialNumber,
  REGISTRATION_TYPES,
  SERIAL_NUMBER,
  serialNumberRule,
} from "./onboarding_rules.ts";

export * from "./onboarding_rules.ts";

// ---- Enums ---------------------------------------------------------------------------------

/** The three cell lists (spec 3 "Cell" type). */
export const CELL_CATEGORIES = ["IN_STOCK", "WAITING_FOR_INSTALLATION", "INSTALLED"] as const;
export type CellCategory = (typeof CELL_CATEGORIES)[number];

/** Mapping status -> label key (namespace `cells`). */
export const MAPPING_STATUS_LABELS = {
  TO_BE_CONFIGURED: "toBeConfigured",
  IN_PROGRESS: "inProgress",
  CONFIGURED: "configured",
} as const;
export type MappingStatus = keyof typeof MAPPING_STATUS_LABELS;
const MAPPING_STATUSES = Object.keys(MAPPING_STATUS_LABELS) as [MappingStatus, ...MappingStatus[]];

/** Whether a cell can send: an active credential, a revoked one, or none issued. */
export const CREDENTIAL_STATES = ["ACTIVE", "REVOKED", "NONE"] as const;
export type CredentialState = (typeof CREDENTIAL_STATES)[number];

/** The phases a probe can carry (spec 3 "Feeder"). */
export const MAPPED_PHASES = ["L1", "L2", "L3", "N"] as const;
export type MappedPhase = (typeof MAPPED_PHASES)[number];

/** Verdicts of a line-mapping validation (spec 4; the streaming core computes them). */
export const MAPPING_VERDICTS = [
  "CORRECT",
  "CANNOT_BE_VERIFIED",
  "SHIFT_RIGHT",
  "SHIFT_LEFT",
  "INVERT_L2_L3",
  "INVERT_L1_L3",
  "INVERT_L1_L2",
  "COIL_DIRECTION",
  "TWO_PHASES_ZERO",
  "NOT_ENOUGH_MEASUREMENTS",
  "ALL_ZERO",
  "TIMEOUT",
] as const;
export type MappingVerdict = (typeof MAPPING_VERDICTS)[number];
export const MAPPING_CERTAINTIES = ["CERTAIN", "NOT_CERTAIN", "NO_CONCLUSION"] as const;
export type MappingCertainty = (typeof MAPPING_CERTAINTIES)[number];

/** I/O module types (spec 3 "Module"). */
export const IO_MODULE_TYPES = ["DIGITAL_INPUT", "DIGITAL_OUTPUT", "ANALOG_INPUT"] as const;
export type IoModuleType = (typeof IO_MODULE_TYPES)[number];
/** Most active modules of a type on one cell (4 + 2 + 2 = the protocol's 8 module numbers). */
export const IO_THRESHOLDS: Readonly<Record<IoModuleType, number>> = {
  DIGITAL_INPUT: 4,
  DIGITAL_OUTPUT: 2,
  ANALOG_INPUT: 2,
};
/** System types offered per module type. */
export const IO_SYSTEM_TYPES: Readonly<Record<IoModuleType, readonly string[]>> = {
  DIGITAL_INPUT: ["DRY_CONTACT", "24V_DC", "230V_AC"],
  DIGITAL_OUTPUT: ["RELAY", "24V_DC"],
  ANALOG_INPUT: ["0_10V", "4_20MA"],
};
/** Channels per module. */
export const IO_SIZES = [2, 4, 8] as const;
export const IO_NAME = { min: 3, max: 20 } as const;

/** Custom message of a cell: at most 120 characters, none of the characters names may not contain. */
export const MESSAGE_MAX = 120;

// ---- Inputs --------------------------------------------------------------------------------

const id = z.string().min(1).max(200);

const serialNumber = z.string().max(SERIAL_NUMBER.max * 4, "validation.maxChars")
  .transform(normalizeSerialNumber)
  .superRefine((serial, ctx) => {
    const rule = serialNumberRule(serial);
    if (rule) ctx.addIssue({ code: "custom", message: rule.key, params: rule.params ?? {} });
  });

/** `POST /gsm/cells`: registers one cell. */
export const registerCellInput = z.strictObject({
  serial_number: serialNumber,
  device_model: z.enum(DEVICE_MODELS).default("GW4"),
  type: z.enum(REGISTRATION_TYPES).default("IN_STOCK"),
}).meta({ id: "RegisterCellInput" });
export type RegisterCellInput = z.input<typeof registerCellInput>;

/** `POST /gsm/cells/import`: registers every cell of a CSV text, or none. */
export const importCellsInput = z.strictObject({
  csv: z.string().max(IMPORT_MAX_CHARS, "validation.csvTooLarge"),
  /** The model of lines that name none. */
  device_model: z.enum(DEVICE_MODELS).default("GW4"),
  type: z.enum(REGISTRATION_TYPES).default("IN_STOCK"),
}).meta({ id: "ImportCellsInput" });
export type ImportCellsInput = z.input<typeof importCellsInput>;

/**
 * A cell's credential as the platform issues it: the only answer that ever carries the secret
 * (it is stored as a hash). `ingest_url` and `configuration_url` come from PUBLIC_URL.
 */
export const cellCredentialDto = z.object({
  cell_id: z.string(),
  serial_number: z.string(),
  device_model: z.enum(DEVICE_MODELS),
  type: z.enum(CELL_CATEGORIES),
  /** `<cell id>.<secret>`: the cell's `Authorization: Bearer` value. */
  credential: z.string(),
  issued_at: z.string(),
  ingest_url: z.string(),
  configuration_url: z.string(),
  protocol_version: z.number(),
}).meta({ id: "CellCredentialDto" });
export type CellCredentialDto = z.output<typeof cellCredentialDto>;

/** The answer of an import: every registered cell with its credential. */
export const importedCellsDto = z.object({
  count: z.number(),
  cells: z.array(cellCredentialDto),
}).meta({ id: "ImportedCellsDto" });
export type ImportedCellsDto = z.output<typeof importedCellsDto>;

/** `GET /gsm/cells`: one page (1-based) of a list. */
export const cellListQuery = z.strictObject({
  category: z.enum(CELL_CATEGORIES),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

/** `GET /gsm/cells/search?q=`: serial number, id or node name. */
export const cellSearchQuery = z.strictObject({ q: z.string().trim().min(1).max(60) });

/** `PUT /gsm/cells/{id}/message`: sets the custom message; empty or null clears it. */
export const cellMessageInput = z.strictObject({
  message: z.string().max(MESSAGE_MAX * 2, "validation.maxChars").trim()
    .max(MESSAGE_MAX, "validation.maxChars")
    .refine((m) => !FORBIDDEN_NAME_CHARS.test(m), "validation.forbiddenChars")
    .nullable().transform((m) => (m ? m : null)),
}).meta({ id: "CellMessageInput" });

/** `POST /gsm/cells/{id}/link`: the node the cell measures. */
export const linkCellInput = z.strictObject({ node_id: id }).meta({ id: "LinkCellInput" });

/** One entry of a mapping: the probe that carries a phase of a feeder. */
export const mappingEntryInput = z.strictObject({
  node_id: id,
  feeder_id: id,
  probe: z.number().int().min(1).max(4),
  phase: z.enum(MAPPED_PHASES),
});
export type MappingEntry = z.output<typeof mappingEntryInput>;

/** `PUT` (replace) and `PATCH` (merge per feeder) `/gsm/cells/{id}/mapping`. */
export const mappingInput = z.strictObject({ entries: z.array(mappingEntryInput).max(48) })
  .meta({ id: "MappingInput" });

const missing = (input: unknown) => input === undefined || input === null;

/** Limits of a measuring range: values with 2 decimals within ±1,000,000, a unit of 1-12 characters. */
export const IO_SCALE = { limit: 1_000_000, unitMax: 12 } as const;
const scaleValue = numeric({ name: "scale", min: -IO_SCALE.limit, max: IO_SCALE.limit, unit: "" });

/**
 * The measuring range of an analog input module: its signal (4-20 mA, 0-10 V) maps linearly
 * onto [min, max] in `unit`, e.g. 4-20 mA onto -20..80 °C. Display only: the cell still sends
 * the signal.
 */
export const ioScaleInput = z.strictObject({
  min: scaleValue,
  max: scaleValue,
  unit: z.string({ error: "validation.required" }).trim().min(1, "validation.required")
    .refine((u) => [...u].length <= IO_SCALE.unitMax && !FORBIDDEN_NAME_CHARS.test(u), {
      message: "validation.scaleUnit",
      params: { count: IO_SCALE.unitMax },
    }),
}).superRefine((s, ctx) => {
  if (s.min >= s.max) {
    ctx.addIssue({ code: "custom", path: ["max"], message: "validation.scaleOrder" });
  }
}).meta({ id: "IoScaleInput" });
export type IoScale = z.output<typeof ioScaleInput>;

/** `PATCH /gsm/io-modules/{id}`: sets (or, null, removes) an analog input's measuring range. */
export const ioModuleScaleInput = z.strictObject({ scale: ioScaleInput.nullable() })
  .meta({ id: "IoModuleScaleInput" });

/** `POST /gsm/io-modules`: a module definition (spec 5). */
export const ioModuleInput = z.strictObject({
  name: gridName(IO_NAME),
  module_type: z.enum(IO_MODULE_TYPES, "validation.required"),
  system_type: z.string({ error: "validation.required" }).max(40),
  size: z.number({ error: "validation.selectModuleSize" })
    .refine((s) => (IO_SIZES as readonly number[]).includes(s), "validation.selectModuleSize"),
  resolution: z.number({
    error: (issue) =>
      missing(issue.input) ? "validation.setModuleResolution" : "validation.invalidValue",
  }).refine((r) => r >= -1 && r <= 1, "validation.resolutionRange"),
  /** An analog input's measuring range; none shows the signal. */
  scale: ioScaleInput.nullable().optional(),
}).superRefine((m, ctx) => {
  // Runs whatever failed (`when`), so also on a body that is not an object at all.
  if (typeof m !== "object" || m === null) return;
  const types = IO_SYSTEM_TYPES[m.module_type as IoModuleType];
  if (types && !types.includes(m.system_type)) {
    ctx.addIssue({ code: "custom", path: ["system_type"], message: "validation.required" });
  }
  if (m.scale && m.module_type !== "ANALOG_INPUT") {
    ctx.addIssue({ code: "custom", path: ["scale"], message: "validation.scaleAnalogOnly" });
  }
}, { when: () => true }).meta({ id: "IoModuleInput" });
export type IoModuleInput = z.output<typeof ioModuleInput>;

/** `POST /gsm/cells/{id}/io-modules`: activates a module on the cell. */
export const activateModuleInput = z.strictObject({ module_id: id })
  .meta({ id: "ActivateModuleInput" });

// ---- Answers -------------------------------------------------------------------------------

/** A cell as the setup lists show it. */
export const setupCellDto = z.object({
  id: z.string(),
  serial_number: z.string(),
  type: z.enum(CELL_CATEGORIES),
  /** Effective status code (configured cells show their connection). */
  status: z.string(),
  /** Display label key (namespace `cells`, `status.<label>`), chosen by the server. */
  status_label: z.string(),
  connection: z.enum(["CONNECTED", "DISCONNECTED"]),
  mapping_status: z.enum(MAPPING_STATUSES),
  mapping_status_label: z.string(),
  device_model: z.enum(DEVICE_MODELS),
  gps_fix: z.string().nullable(),
  gsm_signal: z.string().nullable(),
  firmware: z.string().nullable(),
  last_seen: z.string().nullable(),
  provisioning_date: z.string(),
  custom_message: z.string().nullable(),
  node: z.object({
    id: z.string(),
    name: z.string(),
    electrical_work_name: z.string(),
    type: z.enum(ELECTRICAL_WORK_TYPES),
  }).nullable(),
  mapping_version: z.number(),
  mapping_acked_version: z.number(),
  /** ACTIVE: the cell can send; REVOKED: refused until a new credential is issued. */
  credential_state: z.enum(CREDENTIAL_STATES),
  credential_issued_at: z.string().nullable(),
}).meta({ id: "SetupCellDto" });
export type SetupCellDto = z.output<typeof setupCellDto>;

/** A page of a list. */
export const cellPageDto = z.object({
  items: z.array(setupCellDto),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
}).meta({ id: "CellPage" });
export type CellPage = z.output<typeof cellPageDto>;

/** A node a cell can be linked to. */
export const linkableNodeDto = z.object({
  id: z.string(),
  name: z.string(),
  electrical_work_name: z.string(),
  electrical_work_type: z.enum(ELECTRICAL_WORK_TYPES),
  lv_group_name: z.string(),
  compatible: z.boolean(),
  /** The cell measuring it, if any (a node takes one cell). */
  cell_id: z.string().nullable(),
}).meta({ id: "LinkableNodeDto" });
export type LinkableNodeDto = z.output<typeof linkableNodeDto>;

const phaseProbes = z.object(
  Object.fromEntries(MAPPED_PHASES.map((p) => [p, z.number().nullable()])) as Record<
    MappedPhase,
    z.ZodNullable<z.ZodNumber>
  >,
);

/** The mapping of one feeder: the probe of each phase, null where unmapped. */
export const feederMappingDto = z.object({
  id: z.string(),
  slot: z.number(),
  name: z.string(),
  type: z.string(),
  mv_estimation: z.boolean(),
  phases: phaseProbes,
}).meta({ id: "FeederMappingDto" });
export type FeederMappingDto = z.output<typeof feederMappingDto>;

const verdict = z.enum(MAPPING_VERDICTS);
const certainty = z.enum(MAPPING_CERTAINTIES);

/** The result of a validation, per feeder and overall. */
export const validationDto = z.object({
  at: z.string(),
  verdict,
  certainty,
  /** Text key of the `errors` namespace (spec 8.1 texts). */
  message_key: z.string(),
  more_measurements: z.number(),
  feeders: z.array(z.object({
    feeder_id: z.string(),
    slot: z.number(),
    verdict,
    certainty,
    message_key: z.string(),
    likely: verdict.nullable(),
    more_measurements: z.number(),
    phases: z.array(z.object({
      reliable: z.number(),
      angleDeg: z.number().nullable(),
      zero: z.boolean(),
    })),
  })),
}).meta({ id: "ValidationDto" });
export type ValidationDto = z.output<typeof validationDto>;

/** A cell's mapping, its delivery to the cell and its last validation. */
export const mappingDto = z.object({
  cell_id: z.string(),
  node_id: z.string(),
  version: z.number(),
  acked_version: z.number(),
  /** The cell applied the current version. */
  synchronized: z.boolean(),
  feeders: z.array(feederMappingDto),
  validation: validationDto.nullable(),
}).meta({ id: "MappingDto" });
export type MappingDto = z.output<typeof mappingDto>;

/** Saving answers the mapping and whether it could be sent (114 when not). */
export const savedMappingDto = z.object({
  mapping: mappingDto,
  delivery: z.union([
    z.object({ state: z.literal("PENDING") }),
    z.object({
      state: z.literal("FAILED"),
      code: z.literal(114),
      key: z.literal("mapping.sendFailed"),
    }),
  ]),
}).meta({ id: "SavedMappingDto" });
export type SavedMappingDto = z.output<typeof savedMappingDto>;

/** An I/O module definition. */
export const ioModuleDto = z.object({
  id: z.string(),
  name: z.string(),
  module_type: z.enum(IO_MODULE_TYPES),
  system_type: z.string(),
  size: z.number(),
  resolution: z.number(),
  /** An analog input's measuring range, or null (the signal is shown). */
  scale: z.object({ min: z.number(), max: z.number(), unit: z.string() }).nullable(),
  /** Cells that use it. */
  used_by: z.number(),
}).meta({ id: "IoModuleDto" });
export type IoModuleDto = z.output<typeof ioModuleDto>;

/** The I/O modules of a cell; after an activation, the analog inputs it deactivated. */
export const cellIoDto = z.object({
  supported: z.boolean(),
  /** Why not: the device is a DTVI or the node is unmetered. */
  unsupported_reason: z.enum(["DTVI", "UNMETERED_NODE"]).nullable(),
  modules: z.array(ioModuleDto.extend({ slot: z.number(), active: z.boolean() })),
  thresholds: z.record(z.enum(IO_MODULE_TYPES), z.number()),
  /** Set by an activation: analog inputs turned off for another resolution. */
  deactivated: z.array(z.string()).optional(),
}).meta({ id: "CellIoDto" });
export type CellIoDto = z.output<typeof cellIoDto>;
