/**
 * What the simulator needs to know about a cell: its node, nominal values, position on the LV
 * grid and the feeders it measures. The grid module maps its own records onto these types.
 */

/** The feeder types of the spec: transformer, lines and actuators. */
export type FeederKind =
  | "TRANSFORMER"
  | "LV_LINE"
  | "MV_LINE"
  | "PV_INVERTER"
  | "BATTERY"
  | "EVSE"
  | "BOILER";

/** The daily load curve a line or transformer follows. */
export type LoadProfile = "residential" | "commercial" | "industrial" | "mixed";

/** One measured feeder of a cell. */
export interface SimFeeder {
  /** The cell's feeder slot, 1..6. */
  slot: number;
  kind: FeederKind;
  /** Rated current per phase in A; load curves are fractions of it. */
  nominalCurrentA: number;
  profile: LoadProfile;
  /** PV peak current per phase in A behind the feeder (PV inverters default to the nominal current). */
  pvPeakA?: number;
  /** EV charging current per phase in A behind the feeder, in 16 A (11 kW) charger blocks. */
  evPeakA?: number;
  /**
   * A transformer with MV voltage estimation: the cell reports it from the MV side (the MV
   * phase voltage estimated from the three LV phases and the tap ratio, the MV-side current),
   * so `nominalCurrentA` is the MV-side rated current. Needs the cell's `mvNominalVoltage`.
   */
  mvEstimation?: boolean;
}

/** A simulated measuring cell. Treat it as immutable once handed to the simulator. */
export interface SimCell {
  cellId: string;
  /** The ingestion credential `<cell id>.<secret>`. */
  credential: string;
  nodeKind: "MV_LV_STATION" | "LV_CABINET" | "LV_ACTUATOR";
  /** Phase-neutral nominal voltage in V, e.g. 230. */
  nominalVoltage: number;
  /**
   * Phase-neutral nominal voltage of the MV grid in V (16 kV / sqrt(3) = 9238 V). With it, MV
   * line feeders (measured with MV sensors) and MV-estimating transformers report MV values;
   * without it an MV line is simulated like a line at `nominalVoltage`.
   */
  mvNominalVoltage?: number;
  frequency: 50 | 60;
  /** 0 at the transformer, 1 at the far end of the LV grid: drives the voltage drop. */
  electricalDistance: number;
  /**
   * A weak supply (a long, thin cable): relative voltage drop per unit of load on top of the
   * distance's (0.12: 12 % lower at full load).
   */
  weakSupplyDrop?: number;
  /**
   * A disturbing load near the cell (a sawmill's motors, a welding shop): added to the flicker
   * severity while it works, weekdays 07:00-17:00 local time.
   */
  disturbingLoadPst?: number;
  feeders: SimFeeder[];
  /**
   * Probes wired L2,L3,L1 instead of L1,L2,L3 (a wrong phase mapping the platform must spot):
   * the current of conductor L1 arrives on probe 2 (reported as L2), L2 on probe 3, L3 on
   * probe 1, while the voltage channels stay right.
   */
  swappedMapping?: boolean;
  /** Windows when the cell is offline and sends nothing (epoch ms ranges, `to` exclusive). */
  offline?: { from: number; to: number }[];
  /**
   * How the cell answers a request for an event recording (core/simulator/recordings.ts):
   * GOOD by default; TIMEOUT never answers, CORRUPT uploads a file that fails its checksum,
   * ERROR cannot read its files.
   */
  recordingBehaviour?: RecordingBehaviour;
}

/** How a simulated cell answers a request for an event recording. */
export type RecordingBehaviour = "GOOD" | "TIMEOUT" | "CORRUPT" | "ERROR";

const FEEDER_KINDS: readonly FeederKind[] = [
  "TRANSFORMER",
  "LV_LINE",
  "MV_LINE",
  "PV_INVERTER",
  "BATTERY",
  "EVSE",
  "BOILER",
];
const PROFILES: readonly LoadProfile[] = ["residential", "commercial", "industrial", "mixed"];
const NODE_KINDS: readonly SimCell["nodeKind"][] = ["MV_LV_STATION", "LV_CABINET", "LV_ACTUATOR"];

/**
 * The limits a simulated cell must respect so that its values stay inside the ingestion
 * protocol's ranges (LV u <= 1000 V, i <= 10000 A; MV phase voltages up to 31 kV: the 52 kV
 * line voltage of the customer settings). One table, checked by `parseSimCells`.
 */
export const SIM_CELL_LIMITS = {
  nominalVoltage: [50, 400],
  mvNominalVoltage: [500, 31_000],
  nominalCurrentA: [0.1, 5000],
  peakCurrentA: [0, 5000],
  electricalDistance: [0, 1],
  weakSupplyDrop: [0, 0.2],
  disturbingLoadPst: [0, 3],
  feedersPerCell: [1, 6],
  slot: [1, 6],
} as const;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function numberIn(where: string, value: unknown, range: readonly [number, number]): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new TypeError(`${where} is not a finite number`);
  }
  if (value < range[0] || value > range[1]) {
    throw new RangeError(`${where} ${value} is outside ${range[0]}..${range[1]}`);
  }
  return value;
}

function oneOf<T extends string>(where: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw new TypeError(`${where} must be one of ${allowed.join(", ")}`);
  }
  return value as T;
}

function parseFeeder(where: string, raw: unknown): SimFeeder {
  if (!isObject(raw)) throw new TypeError(`${where} is not an object`);
  const slot = numberIn(`${where}: slot`, raw.slot, SIM_CELL_LIMITS.slot);
  if (!Number.isInteger(slot)) throw new TypeError(`${where}: slot ${slot} is not an integer`);
  const feeder: SimFeeder = {
    slot,
    kind: oneOf(`${where}: kind`, raw.kind, FEEDER_KINDS),
    nominalCurrentA: numberIn(
      `${where}: nominalCurrentA`,
      raw.nominalCurrentA,
      SIM_CELL_LIMITS.nominalCurrentA,
    ),
    profile: oneOf(`${where}: profile`, raw.profile ?? "mixed", PROFILES),
  };
  if (raw.pvPeakA !== undefined) {
    feeder.pvPeakA = numberIn(`${where}: pvPeakA`, raw.pvPeakA, SIM_CELL_LIMITS.peakCurrentA);
  }
  if (raw.evPeakA !== undefined) {
    feeder.evPeakA = numberIn(`${where}: evPeakA`, raw.evPeakA, SIM_CELL_LIMITS.peakCurrentA);
  }
  if (raw.mvEstimation === true) {
    if (feeder.kind !== "TRANSFORMER") {
      throw new TypeError(`${where}: mvEstimation is for transformers only`);
    }
    feeder.mvEstimation = true;
  }
  return feeder;
}

function parseOffline(where: string, raw: unknown): { from: number; to: number }[] {
  if (!Array.isArray(raw)) throw new TypeError(`${where}: offline is not an array`);
  return raw.map((item, k) => {
    const at = `${where}: offline[${k}]`;
    if (!isObject(item)) throw new TypeError(`${at} is not an object`);
    const from = typeof item.from === "string" ? Date.parse(item.from) : item.from;
    const to = typeof item.to === "string" ? Date.parse(item.to) : item.to;
    const range = [0, 8.64e15] as const;
    return { from: numberIn(`${at}.from`, from, range), to: numberIn(`${at}.to`, to, range) };
  });
}

function parseCell(index: number, raw: unknown): SimCell {
  if (!isObject(raw)) throw new TypeError(`Cannot read cell ${index}: not an object`);
  const id = typeof raw.cellId === "string" && raw.cellId !== "" ? raw.cellId : null;
  const where = `Cannot read cell ${id ?? index}`;
  if (id === null) throw new TypeError(`${where}: cellId is missing`);
  if (typeof raw.credential !== "string" || raw.credential === "") {
    throw new TypeError(`${where}: credential is missing`);
  }
  if (raw.frequency !== 50 && raw.frequency !== 60) {
    throw new TypeError(`${where}: frequency must be 50 or 60`);
  }
  if (!Array.isArray(raw.feeders)) throw new TypeError(`${where}: feeders is not an array`);
  const count = raw.feeders.length;
  if (count < SIM_CELL_LIMITS.feedersPerCell[0] || count > SIM_CELL_LIMITS.feedersPerCell[1]) {
    throw new RangeError(`${where}: ${count} feeders, expected 1..6`);
  }
  const feeders = raw.feeders.map((f, k) => parseFeeder(`${where}: feeder ${k}`, f));
  const slots = new Set(feeders.map((f) => f.slot));
  if (slots.size !== feeders.length) throw new RangeError(`${where}: feeder slots repeat`);
  const cell: SimCell = {
    cellId: id,
    credential: raw.credential,
    nodeKind: oneOf(`${where}: nodeKind`, raw.nodeKind, NODE_KINDS),
    nominalVoltage: numberIn(
      `${where}: nominalVoltage`,
      raw.nominalVoltage,
      SIM_CELL_LIMITS.nominalVoltage,
    ),
    frequency: raw.frequency,
    electricalDistance: numberIn(
      `${where}: electricalDistance`,
      raw.electricalDistance ?? 0,
      SIM_CELL_LIMITS.electricalDistance,
    ),
    feeders,
  };
  if (raw.mvNominalVoltage !== undefined) {
    cell.mvNominalVoltage = numberIn(
      `${where}: mvNominalVoltage`,
      raw.mvNominalVoltage,
      SIM_CELL_LIMITS.mvNominalVoltage,
    );
  } else if (feeders.some((f) => f.mvEstimation)) {
    throw new TypeError(`${where}: mvNominalVoltage is missing for the MV-estimating transformer`);
  }
  for (const key of ["weakSupplyDrop", "disturbingLoadPst"] as const) {
    if (raw[key] !== undefined) {
      cell[key] = numberIn(`${where}: ${key}`, raw[key], SIM_CELL_LIMITS[key]);
    }
  }
  if (raw.swappedMapping === true) cell.swappedMapping = true;
  if (raw.offline !== undefined) cell.offline = parseOffline(where, raw.offline);
  return cell;
}

/**
 * Validates parsed JSON (an array of cells, as in a `cells.json` file) into `SimCell`s.
 * Offline windows may be given as epoch ms or ISO strings. Throws a `TypeError` or `RangeError`
 * naming the cell and field at the first problem.
 */
export function parseSimCells(json: unknown): SimCell[] {
  if (!Array.isArray(json)) throw new TypeError("Cannot read cells: expected a JSON array");
  const cells = json.map((raw, k) => parseCell(k, raw));
  const ids = new Set(cells.map((c) => c.cellId));
  if (ids.size !== cells.length) throw new RangeError("Cannot read cells: cell ids repeat");
  return cells;
}
