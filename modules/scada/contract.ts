/**
 * The SCADA connector contract (scm): profiles (one per SCADA master: its IP address, the TCP
 * port the product listens on for it, the common address (ASDU), the IEC 60870-5-104 timers and
 * windows), their point lists (information object addresses in feeder order) and the
 * connector's state. Shared with the web app (types with `import type`). Pure: imports only zod.
 */
import { z } from "zod";

/** IEC 60870-5-104 defaults (domain guide): port 2404, k=12, w=8, t0=30, t1=15, t2=10, t3=20 s. */
export const IEC104_DEFAULTS = { t0: 30, t1: 15, t2: 10, t3: 20, k: 12, w: 8 } as const;

/** Limits of the profile form, in one table (spec 5 and the standard's ranges). */
export const SCADA_LIMITS = {
  nameMin: 3,
  nameMax: 60,
  portMin: 1024,
  portMax: 65535,
  /** Common address: 0 is not used and 65535 is the broadcast address. */
  asduMin: 1,
  asduMax: 65534,
  /** Information object address (spec 5: "address 1 to 65535"). */
  ioaMin: 1,
  ioaMax: 65535,
  /** Timers in seconds (t0-t2 at most 255 s, t3 at most 48 h: the standard's ranges). */
  timerMin: 1,
  timerMax: 255,
  t3Max: 172_800,
  /** k and w (the standard allows up to 32767; a master never needs more than that). */
  windowMin: 1,
  windowMax: 32_767,
  /** Deadband of a float quantity, in its unit (V, A, kW, kvar, Hz). */
  deadbandMax: 1_000_000,
  /** Points per profile (5,000 nodes x 12 points). */
  pointsMax: 60_000,
} as const;

/** The ASDU types a point may be sent as. Floats: M_ME_NC_1 (GI) / M_ME_TF_1 (spontaneous). */
export const POINT_DATA_TYPES = ["FLOAT", "SINGLE_POINT"] as const;
export type PointDataType = (typeof POINT_DATA_TYPES)[number];

/** The element a point belongs to. */
export const ELEMENT_TYPES = ["NODE", "FEEDER"] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

/**
 * The values a point carries: voltage, current, active and reactive power per feeder and phase
 * (floats: V, A, kW, kvar), the node's frequency (float, Hz, from its first LV feeder's L1, the
 * busbar), the node's state (single point: on while the node has a warning or an alarm) and
 * whether its cell is connected (single point: on while the cell's values are live).
 */
export const QUANTITIES = [
  "U",
  "I",
  "P",
  "Q",
  "FREQUENCY",
  "NODE_STATE",
  "CELL_CONNECTED",
] as const;
export type Quantity = (typeof QUANTITIES)[number];

/** The quantities the generated list does not hold, which a user may add (POST .../generate). */
export const EXTRA_QUANTITIES = ["P", "Q", "FREQUENCY"] as const;
export type ExtraQuantity = (typeof EXTRA_QUANTITIES)[number];

const FLOATS: ReadonlySet<Quantity> = new Set(["U", "I", "P", "Q", "FREQUENCY"]);
const PER_PHASE: ReadonlySet<Quantity> = new Set(["U", "I", "P", "Q"]);

/** The data type a quantity is sent as. */
export function dataTypeOf(quantity: Quantity): PointDataType {
  return FLOATS.has(quantity) ? "FLOAT" : "SINGLE_POINT";
}

/** Whether a quantity belongs to a feeder and phase (U, I, P, Q) or to the node. */
export function isPhaseQuantity(quantity: Quantity): boolean {
  return PER_PHASE.has(quantity);
}

/** The unit a float point is sent in (empty for single points). */
export const UNIT_OF: Record<Quantity, string> = {
  U: "V",
  I: "A",
  P: "kW",
  Q: "kvar",
  FREQUENCY: "Hz",
  NODE_STATE: "",
  CELL_CONNECTED: "",
};

/** IPv4 dotted quad or an IPv6 address (the master's address). */
export function isIpAddress(value: string): boolean {
  return z.ipv4().safeParse(value).success || z.ipv6().safeParse(value).success;
}

const integer = (min: number, max: number, key: string) =>
  z.number({ error: "validation.required" }).int("validation.integerOnly").min(min, key)
    .max(max, key);

/** t0-t3 (s), k and w; the standard's relations: t2 < t1, w <= 2/3 k. */
export const timersInput = z.object({
  t0: integer(SCADA_LIMITS.timerMin, SCADA_LIMITS.timerMax, "validation.scadaTimerRange"),
  t1: integer(SCADA_LIMITS.timerMin, SCADA_LIMITS.timerMax, "validation.scadaTimerRange"),
  t2: integer(SCADA_LIMITS.timerMin, SCADA_LIMITS.timerMax, "validation.scadaTimerRange"),
  t3: integer(SCADA_LIMITS.timerMin, SCADA_LIMITS.t3Max, "validation.scadaT3Range"),
  k: integer(SCADA_LIMITS.windowMin, SCADA_LIMITS.windowMax, "validation.scadaWindowRange"),
  w: integer(SCADA_LIMITS.windowMin, SCADA_LIMITS.windowMax, "validation.scadaWindowRange"),
}).strict().superRefine((t, ctx) => {
  if (t.t2 >= t.t1) {
    ctx.addIssue({ code: "custom", path: ["t2"], message: "validation.scadaT2BelowT1" });
  }
  if (t.w * 3 > t.k * 2) {
    ctx.addIssue({ code: "custom", path: ["w"], message: "validation.scadaWWithinK" });
  }
});
export type TimersInput = z.output<typeof timersInput>;

/** The float quantities, whose spontaneous values a deadband may hold back. */
export const DEADBAND_QUANTITIES = ["U", "I", "P", "Q", "FREQUENCY"] as const;
export type DeadbandQuantity = (typeof DEADBAND_QUANTITIES)[number];

const deadband = z.number({ error: "validation.required" })
  .min(0, "validation.scadaDeadbandRange")
  .max(SCADA_LIMITS.deadbandMax, "validation.scadaDeadbandRange");

/**
 * Per float quantity, the change in its unit below which a new 20-s value is not sent
 * spontaneously (0: every new value is sent, the default). A change of quality is always sent.
 */
export const deadbandsInput = z.object({
  U: deadband,
  I: deadband,
  P: deadband,
  Q: deadband,
  FREQUENCY: deadband,
}).strict();
export type DeadbandsDto = z.output<typeof deadbandsInput>;

/** No deadband: every new value is sent. */
export const NO_DEADBANDS: DeadbandsDto = { U: 0, I: 0, P: 0, Q: 0, FREQUENCY: 0 };

/** A profile as created or replaced (POST /scm/profiles, PUT /scm/profiles/{id}). */
export const profileInput = z.object({
  name: z.string({ error: "validation.required" }).trim()
    .min(1, "validation.required")
    .min(SCADA_LIMITS.nameMin, "validation.nameMin")
    .max(SCADA_LIMITS.nameMax, "validation.nameMax"),
  ip_address: z.string({ error: "validation.required" }).trim().min(1, "validation.required")
    .refine(isIpAddress, "validation.ipInvalid"),
  port: integer(SCADA_LIMITS.portMin, SCADA_LIMITS.portMax, "validation.tcpPort"),
  asdu: integer(SCADA_LIMITS.asduMin, SCADA_LIMITS.asduMax, "validation.scadaAsduRange"),
  activated: z.boolean().default(false),
  timers: timersInput.optional(),
  /** Absent: zeros on creation, kept on replacement. */
  deadbands: deadbandsInput.optional(),
}).strict();
export type ProfileInput = z.input<typeof profileInput>;
export type ProfileData = z.output<typeof profileInput>;

export const timersDto = z.object({
  t0: z.number(),
  t1: z.number(),
  t2: z.number(),
  t3: z.number(),
  k: z.number(),
  w: z.number(),
}).meta({ id: "ScadaTimersDto" });
export type TimersDto = z.output<typeof timersDto>;

/** A profile. */
export const profileDto = z.object({
  id: z.string(),
  name: z.string(),
  ip_address: z.string(),
  port: z.number(),
  asdu: z.number(),
  activated: z.boolean(),
  timers: timersDto,
  deadbands: z.object({
    U: z.number(),
    I: z.number(),
    P: z.number(),
    Q: z.number(),
    FREQUENCY: z.number(),
  }).meta({ id: "ScadaDeadbandsDto" }),
  point_count: z.number(),
  updated_at: z.string(),
}).meta({ id: "ScadaProfileDto" });
export type ProfileDto = z.output<typeof profileDto>;

export const profileListDto = z.array(profileDto).meta({ id: "ScadaProfileListDto" });

/** One point of a profile's list, as stored and as sent (its position is its index). */
export const pointInput = z.object({
  ioa: integer(SCADA_LIMITS.ioaMin, SCADA_LIMITS.ioaMax, "validation.scadaAddressRange"),
  node_id: z.string({ error: "validation.required" }).min(1, "validation.required").max(200),
  feeder_id: z.string().max(200).nullable().default(null),
  quantity: z.enum(QUANTITIES, { error: "validation.invalidChoice" }),
  /** 1..3 (L1..L3) for U, I, P and Q, null for node values. */
  phase: z.number().int().min(1).max(3).nullable().default(null),
  activated: z.boolean().default(true),
}).strict();
export type PointInput = z.input<typeof pointInput>;

/** PUT /scm/profiles/{id}/points: the whole list in feeder order. */
export const pointsInput = z.object({
  points: z.array(pointInput).max(SCADA_LIMITS.pointsMax, "validation.maxItems"),
}).strict();
export type PointsInput = z.input<typeof pointsInput>;

/** The languages the point list's PDF is written in. */
export const PDF_LANGUAGES = ["en", "fr", "de", "uk"] as const;
export type PdfLanguage = (typeof PDF_LANGUAGES)[number];

/** GET /scm/profiles/{id}/points/pdf: the language the point list is written in. */
export const pointsPdfQuery = z.object({
  language: z.enum(PDF_LANGUAGES, { error: "validation.invalidChoice" }).default("en"),
}).strict();

/** POST /scm/profiles/{id}/points/generate (optional body): the values to add to the default. */
export const generateInput = z.object({
  extra: z.array(z.enum(EXTRA_QUANTITIES, { error: "validation.invalidChoice" })).max(3)
    .default([]),
}).strict();
export type GenerateInput = z.input<typeof generateInput>;

export const pointDto = z.object({
  ioa: z.number(),
  node_id: z.string(),
  feeder_id: z.string().nullable(),
  quantity: z.enum(QUANTITIES),
  phase: z.number().nullable(),
  activated: z.boolean(),
  data_type: z.enum(POINT_DATA_TYPES),
  element_type: z.enum(ELEMENT_TYPES),
  /** Electrical work / node (/ feeder); empty when the node no longer exists. */
  element_name: z.string(),
  /** False when the node or feeder no longer exists in the grid structure. */
  known: z.boolean(),
}).meta({ id: "ScadaPointDto" });
export type PointDto = z.output<typeof pointDto>;

export const pointListDto = z.object({
  profile_id: z.string(),
  points: z.array(pointDto),
}).meta({ id: "ScadaPointListDto" });
export type PointListDto = z.output<typeof pointListDto>;

/** One connected master. */
export const masterDto = z.object({
  address: z.string(),
  port: z.number(),
  since: z.string(),
  started: z.boolean(),
  frames_sent: z.number(),
  frames_received: z.number(),
}).meta({ id: "ScadaMasterDto" });

/** The connector's state per profile. */
export const listenerDto = z.object({
  profile_id: z.string(),
  name: z.string(),
  port: z.number(),
  listening: z.boolean(),
  masters: z.array(masterDto),
  frames_sent: z.number(),
  frames_received: z.number(),
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
}).meta({ id: "ScadaListenerDto" });
export type ListenerDto = z.output<typeof listenerDto>;

export const statusDto = z.object({ listeners: z.array(listenerDto) }).meta({
  id: "ScadaStatusDto",
});
export type StatusDto = z.output<typeof statusDto>;

/**
 * POST /scm/profiles/{id}/points/add: values added to a profile's list without regenerating it.
 * `feeder_ids` null: U on each node's first LV feeder (the busbar), I, P and Q on every LV
 * feeder; otherwise the per-phase values go to those feeders of the chosen nodes only.
 */
export const addPointsInput = z.object({
  quantities: z.array(z.enum(QUANTITIES, { error: "validation.invalidChoice" }))
    .min(1, "validation.required").max(QUANTITIES.length, "validation.maxItems"),
  node_ids: z.array(z.string().min(1).max(200)).min(1, "validation.required")
    .max(SCADA_LIMITS.pointsMax, "validation.maxItems"),
  feeder_ids: z.array(z.string().min(1).max(200)).max(SCADA_LIMITS.pointsMax).nullable()
    .default(null),
}).strict();
export type AddPointsInput = z.input<typeof addPointsInput>;
export type AddPointsData = z.output<typeof addPointsInput>;

/** The answer of .../points/add: the whole list and how many points were added. */
export const addedPointsDto = z.object({
  profile_id: z.string(),
  points: z.array(pointDto),
  added: z.number(),
}).meta({ id: "ScadaAddedPointsDto" });
export type AddedPointsDto = z.output<typeof addedPointsDto>;

/** A node a point may belong to, with its LV feeders in slot order (GET /scm/nodes). */
export const scadaNodeDto = z.object({
  id: z.string(),
  /** Electrical work / node. */
  name: z.string(),
  feeders: z.array(z.object({ id: z.string(), name: z.string() })),
}).meta({ id: "ScadaNodeDto" });
export type ScadaNodeDto = z.output<typeof scadaNodeDto>;
export const scadaNodeListDto = z.array(scadaNodeDto).meta({ id: "ScadaNodeListDto" });

/** The fields of a point the planner reads and writes. */
export interface PlannedPoint {
  ioa: number;
  node_id: string;
  feeder_id: string | null;
  quantity: Quantity;
  phase: number | null;
  activated: boolean;
}

/** Why an addition is refused (the server answers it as a 400 on `quantities`). */
export type AddProblem = {
  key: "validation.scadaPointsMax";
  params: { max: number; count: number };
};

const pointKey = (p: Pick<PlannedPoint, "node_id" | "feeder_id" | "quantity" | "phase">) =>
  `${p.node_id}|${p.feeder_id ?? ""}|${p.quantity}|${p.phase ?? ""}`;

/**
 * The list after adding `quantities` for `nodes` (the chosen ones, in feeder order): points the
 * list holds already (same node, feeder, value and phase) are not added again; existing points
 * keep their address, activation and order; a node's new points follow its last point (or go
 * to the end); new addresses are the free ones above the highest in use, then the free ones
 * below it, ascending (never short: pointsMax < ioaMax). Shared by the server (the rule) and the form (its preview).
 */
export function planAddedPoints(
  existing: readonly PlannedPoint[],
  nodes: readonly { id: string; feeders: readonly { id: string }[] }[],
  quantities: readonly Quantity[],
  feederIds: readonly string[] | null,
): { points: PlannedPoint[]; added: number; problem: AddProblem | null } {
  const held = new Set(existing.map(pointKey));
  const chosenFeeders = feederIds ? new Set(feederIds) : null;
  const newByNode = new Map<string, Omit<PlannedPoint, "ioa">[]>();
  let added = 0;
  for (const node of nodes) {
    const fresh: Omit<PlannedPoint, "ioa">[] = [];
    const push = (feeder: string | null, quantity: Quantity, phase: number | null) => {
      const p = { node_id: node.id, feeder_id: feeder, quantity, phase, activated: true };
      if (held.has(pointKey(p))) return;
      held.add(pointKey(p));
      fresh.push(p);
    };
    const feeders = chosenFeeders
      ? node.feeders.filter((f) => chosenFeeders.has(f.id))
      : node.feeders;
    for (const quantity of QUANTITIES.filter((q) => quantities.includes(q))) {
      if (!isPhaseQuantity(quantity)) {
        if (quantity !== "FREQUENCY" || node.feeders.length) push(null, quantity, null);
        continue;
      }
      const targets = quantity === "U" && !chosenFeeders ? feeders.slice(0, 1) : feeders;
      for (const feeder of targets) for (const phase of [1, 2, 3]) push(feeder.id, quantity, phase);
    }
    if (fresh.length) newByNode.set(node.id, fresh);
    added += fresh.length;
  }
  const total = existing.length + added;
  if (total > SCADA_LIMITS.pointsMax) {
    return {
      points: [...existing],
      added: 0,
      problem: {
        key: "validation.scadaPointsMax",
        params: { max: SCADA_LIMITS.pointsMax, count: total },
      },
    };
  }
  // Enough free addresses: at most pointsMax (60,000) of the 65,535 are in use after adding.
  const used = new Set(existing.map((p) => p.ioa));
  const highest = existing.reduce((m, p) => Math.max(m, p.ioa), 0);
  const free: number[] = [];
  for (let a = highest + 1; a <= SCADA_LIMITS.ioaMax && free.length < added; a++) free.push(a);
  for (let a = SCADA_LIMITS.ioaMin; a < highest && free.length < added; a++) {
    if (!used.has(a)) free.push(a);
  }
  let next = 0;
  const withIoa = (list: Omit<PlannedPoint, "ioa">[]) =>
    list.map((p) => ({ ...p, ioa: free[next++]! }));
  const lastOf = new Map<string, number>();
  existing.forEach((p, k) => lastOf.set(p.node_id, k));
  const out: PlannedPoint[] = [];
  existing.forEach((p, k) => {
    out.push(p);
    const fresh = newByNode.get(p.node_id);
    if (fresh && lastOf.get(p.node_id) === k) {
      out.push(...withIoa(fresh));
      newByNode.delete(p.node_id);
    }
  });
  for (const node of nodes) {
    const fresh = newByNode.get(node.id);
    if (fresh) out.push(...withIoa(fresh));
  }
  return { points: out, added, problem: null };
}
