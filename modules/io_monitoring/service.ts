/**
 * IO monitoring reads: the customer's electrical works with active I/O modules and each
 * channel's newest value (GET /iom/electrical-works), and the history of an electrical work's
 * channels over a period (digital step series, analog values downsampled per resolution).
 * Configuration from the grid module, values from the DuckDB table io_states.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { activeIoCells, type ActiveIoModule, type IoCell } from "../grid/mod.ts";
import { AppError, type Db } from "../../kernel/mod.ts";
import type {
  IoElectricalWorkDto,
  IoElectricalWorksDto as IoElectricalWorksAnswer,
  IoHistoryDto as IoHistoryAnswer,
  IoModuleDto as ModuleDto,
} from "./contract.ts";
import { scaleSignal } from "./contract.ts";
import {
  alignSlots,
  type AnalogSlot,
  type ChangeRow,
  GAP_MS,
  parsePeriod,
  resolutionFor,
  round2,
  slotGrid,
  STEP_MS,
  stepSeries,
} from "./series.ts";

export type { IoElectricalWorksAnswer, IoHistoryAnswer };

/** What names a channel in a history. */
type ChannelHistoryDto = Omit<IoHistoryAnswer["digital"][number], "points">;

/** The unit of an analog input's values. */
export function unitOf(m: Pick<ActiveIoModule, "module_type" | "system_type">): string {
  if (m.module_type !== "ANALOG_INPUT") return "";
  return m.system_type === "4_20MA" ? "mA" : "V";
}

/** The newest value of a channel is looked for in this recent past (a cheap scan). */
export const LATEST_LOOKBACK_MS = 2 * 86_400_000;
/** The start of a channel's state is looked up again after this long at the latest. */
const SINCE_TTL_MS = 10 * 60_000;

const KIND = { DIGITAL_INPUT: "DI", DIGITAL_OUTPUT: "DO", ANALOG_INPUT: "AI" } as const;
const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;
const tsMs = (ms: number) => `make_timestamp(${Math.floor(ms) * 1000})`;
const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();

export class IoMonitoringService {
  /** Per cell|module|channel: the start of its state (see #latest). */
  readonly #since = new Map<string, { value: number; since: number; checkedAt: number }>();

  constructor(
    private readonly db: Db,
    private readonly analytics: Pick<DuckDBConnection, "runAndReadAll">,
    private readonly now: () => number = Date.now,
  ) {}

  /** The electrical works of the customer that have a cell with active I/O modules. */
  async list(customerKey: string): Promise<IoElectricalWorksAnswer> {
    const cells = await activeIoCells(this.db, customerKey);
    const latest = await this.#latest(cells);
    const works = new Map<string, IoElectricalWorkDto>();
    for (const cell of cells) {
      const ew = cell.electrical_work;
      let work = works.get(ew.key);
      if (!work) {
        work = { ...ew, cells: [] };
        works.set(ew.key, work);
      }
      let lastData: number | null = null;
      const modules = cell.modules.map((m): ModuleDto => ({
        ...m,
        unit: unitOf(m),
        channels: Array.from({ length: m.size }, (_, k) => {
          const v = latest.get(`${cell.cell_id}|${m.slot}|${k + 1}`);
          if (v && (lastData === null || v.at > lastData)) lastData = v.at;
          const analog = m.module_type === "ANALOG_INPUT";
          return {
            channel: k + 1,
            value: v ? (analog ? round2(v.value) : v.value) : null,
            scaled: analog && v ? scaleSignal(v.value, m.system_type, m.scale) : null,
            at: iso(v?.at ?? null),
            since: m.module_type === "ANALOG_INPUT" ? null : iso(v?.since ?? null),
          };
        }),
      }));
      work.cells.push({
        cell_id: cell.cell_id,
        node_id: cell.node_id,
        node_name: cell.node_name,
        last_data_at: iso(lastData),
        modules,
      });
    }
    return {
      electrical_works: [...works.values()].sort((a, b) => a.name.localeCompare(b.name)),
      generated_at: new Date(this.now()).toISOString(),
    };
  }

  /** The channels' values of one electrical work over `[from, to)`; 404 for unknown/foreign. */
  async history(
    customerKey: string,
    key: string,
    from: string,
    to: string,
  ): Promise<IoHistoryAnswer> {
    const period = parsePeriod(from, to);
    const cells = (await activeIoCells(this.db, customerKey))
      .filter((c) => c.electrical_work.key === key);
    if (!cells.length) throw new AppError("grid.elementNotFound");
    const resolution = resolutionFor(period.to - period.from);
    const step = STEP_MS[resolution];
    const times = slotGrid(period.from, period.to, step);
    const end = Math.min(period.to, this.now());
    const answer: IoHistoryAnswer = {
      key,
      name: cells[0]!.electrical_work.name,
      from: iso(period.from)!,
      to: iso(period.to)!,
      digital: [],
      resolution,
      step_s: step / 1000,
      times,
      analog: [],
    };
    for (const cell of cells) {
      const digital = cell.modules.filter((m) => m.module_type !== "ANALOG_INPUT");
      const analog = cell.modules.filter((m) => m.module_type === "ANALOG_INPUT");
      const changes = await this.#digitalChanges(cell.cell_id, digital, period.from, period.to);
      for (const m of digital) {
        for (let ch = 1; ch <= m.size; ch++) {
          const c = changes.get(`${m.slot}|${ch}`);
          answer.digital.push({
            ...describe(cell, m, ch),
            points: stepSeries(c?.rows ?? [], c?.last ?? null, period.from, end),
          });
        }
      }
      const slots = await this.#analogSlots(cell.cell_id, analog, period.from, period.to, step);
      for (const m of analog) {
        for (let ch = 1; ch <= m.size; ch++) {
          // Scaled from the unrounded signal, so that 2 decimals hold for the quantity.
          const raw = slots.get(`${m.slot}|${ch}`) ?? [];
          const scale = (v: number) => scaleSignal(v, m.system_type, m.scale) ?? v;
          answer.analog.push({
            ...describe(cell, m, ch),
            ...alignSlots(
              times,
              m.scale
                ? raw.map((s) => ({
                  ...s,
                  mean: scale(s.mean),
                  min: scale(s.min),
                  max: scale(s.max),
                }))
                : raw,
            ),
          });
        }
      }
    }
    return answer;
  }

  /**
   * Newest value of the last {@link LATEST_LOOKBACK_MS}, its time and (digital) the start of its
   * state, per cell|module|channel. The start of a state is looked up once per state (cached for
   * {@link SINCE_TTL_MS}, so history filled in later moves it back), nearest days first.
   */
  async #latest(
    cells: readonly IoCell[],
  ): Promise<Map<string, { value: number; at: number; since: number | null }>> {
    const out = new Map<string, { value: number; at: number; since: number | null }>();
    if (!cells.length) return out;
    const now = this.now();
    const result = await this.analytics.runAndReadAll(
      `SELECT cell_id, module, channel, kind, arg_max(value, ts), epoch_ms(max(ts)) FROM io_states
       WHERE cell_id IN (${cells.map((c) => quote(c.cell_id)).join(",")})
         AND ts >= ${tsMs(now - LATEST_LOOKBACK_MS)}
       GROUP BY cell_id, module, channel, kind`,
    );
    const missing: { key: string; cell: string; module: number; channel: number; value: number }[] =
      [];
    for (
      const [cell, module, channel, kind, value, at] of result.getRows() as [
        string,
        number,
        number,
        string,
        number,
        bigint,
      ][]
    ) {
      const key = `${cell}|${module}|${channel}`;
      const cached = this.#since.get(key);
      const fresh = cached && cached.value === value && now - cached.checkedAt < SINCE_TTL_MS;
      out.set(key, { value, at: Number(at), since: fresh ? cached.since : null });
      if (kind !== "AI" && !fresh) missing.push({ key, cell, module, channel, value });
    }
    for (const lookback of [86_400_000, 31 * 86_400_000, null]) {
      if (!missing.length) break;
      const found = await this.#stateStarts(missing, lookback === null ? null : now - lookback);
      for (const [key, since] of found) {
        out.get(key)!.since = since;
        this.#since.set(key, { value: out.get(key)!.value, since, checkedAt: now });
      }
      missing.splice(0, missing.length, ...missing.filter((m) => !found.has(m.key)));
    }
    return out;
  }

  /**
   * The first value of each channel's current state at or after `from` (null: all data): after
   * the last different value; when `from` is null and none differs, the channel's first value.
   */
  async #stateStarts(
    channels: readonly {
      key: string;
      cell: string;
      module: number;
      channel: number;
      value: number;
    }[],
    from: number | null,
  ): Promise<Map<string, number>> {
    const values = channels
      .map((c) => `(${quote(c.cell)}, ${c.module}, ${c.channel}, ${c.value})`).join(",");
    const join = (bound: string) =>
      `FROM io_states s JOIN (VALUES ${values}) AS c(cell_id, module, channel, v)
         ON s.cell_id = c.cell_id AND s.module = c.module AND s.channel = c.channel
       WHERE s.kind <> 'AI' AND ${bound}`;
    const ends = (await this.analytics.runAndReadAll(
      `SELECT c.cell_id, c.module, c.channel, epoch_ms(min(s.ts)),
         epoch_ms(max(s.ts) FILTER (WHERE s.value <> c.v))
       ${join(from === null ? "true" : `s.ts >= ${tsMs(from)}`)}
       GROUP BY c.cell_id, c.module, c.channel`,
    )).getRows() as [string, number, number, bigint, bigint | null][];
    const out = new Map<string, number>();
    const others = new Map<string, number>();
    for (const [cell, module, channel, first, other] of ends) {
      const key = `${cell}|${module}|${channel}`;
      if (other !== null) others.set(key, Number(other));
      else if (from === null) out.set(key, Number(first));
    }
    if (!others.size) return out;
    // The first value after the last different one (scanning from the oldest of those on).
    const afters = [...others].map(([key, ms]) => {
      const [cell, module, channel] = key.split("|");
      return `(${quote(cell!)}, ${module}, ${channel}, ${tsMs(ms)})`;
    });
    const starts = (await this.analytics.runAndReadAll(
      `SELECT c.cell_id, c.module, c.channel, epoch_ms(min(s.ts))
       FROM io_states s JOIN (VALUES ${afters.join(",")}) AS c(cell_id, module, channel, after)
         ON s.cell_id = c.cell_id AND s.module = c.module AND s.channel = c.channel
       WHERE s.ts > ${tsMs(Math.min(...others.values()))} AND s.ts > c.after
       GROUP BY c.cell_id, c.module, c.channel`,
    )).getRows() as [string, number, number, bigint][];
    for (const [cell, module, channel, ts] of starts) {
      out.set(`${cell}|${module}|${channel}`, Number(ts));
    }
    return out;
  }

  /** Rows where a digital value changed, started or resumed after a gap, and the newest value. */
  async #digitalChanges(
    cellId: string,
    modules: readonly ActiveIoModule[],
    from: number,
    to: number,
  ): Promise<Map<string, { rows: ChangeRow[]; last: { ts: number; value: number } }>> {
    const out = new Map<string, { rows: ChangeRow[]; last: { ts: number; value: number } }>();
    if (!modules.length) return out;
    const where = `cell_id = ${quote(cellId)} AND module IN (${modules.map((m) => m.slot)})
      AND kind IN (${[...new Set(modules.map((m) => quote(KIND[m.module_type])))]})
      AND ts >= ${tsMs(from - GAP_MS)} AND ts < ${tsMs(to)}`;
    const changes = await this.analytics.runAndReadAll(
      `SELECT module, channel, epoch_ms(ts), value, epoch_ms(prev_ts) FROM (
         SELECT module, channel, ts, value,
           lag(value) OVER w AS prev_value, lag(ts) OVER w AS prev_ts
         FROM io_states WHERE ${where}
         WINDOW w AS (PARTITION BY module, channel ORDER BY ts))
       WHERE prev_ts IS NULL OR prev_value <> value OR ts - prev_ts > INTERVAL ${
        GAP_MS / 1000
      } SECOND
       ORDER BY module, channel, ts`,
    );
    const lasts = await this.analytics.runAndReadAll(
      `SELECT module, channel, epoch_ms(max(ts)), arg_max(value, ts) FROM io_states
       WHERE ${where} GROUP BY module, channel`,
    );
    for (
      const [module, channel, ts, value] of lasts.getRows() as [number, number, bigint, number][]
    ) {
      out.set(`${module}|${channel}`, { rows: [], last: { ts: Number(ts), value } });
    }
    for (
      const [module, channel, ts, value, prev] of changes.getRows() as [
        number,
        number,
        bigint,
        number,
        bigint | null,
      ][]
    ) {
      out.get(`${module}|${channel}`)?.rows.push({
        ts: Number(ts),
        value,
        prevTs: prev === null ? null : Number(prev),
      });
    }
    return out;
  }

  /** Analog values per slot of `stepMs` (mean, min, max), per module|channel. */
  async #analogSlots(
    cellId: string,
    modules: readonly ActiveIoModule[],
    from: number,
    to: number,
    stepMs: number,
  ): Promise<Map<string, AnalogSlot[]>> {
    const out = new Map<string, AnalogSlot[]>();
    if (!modules.length) return out;
    const slot = `epoch_ms(ts) - epoch_ms(ts) % ${stepMs}`;
    const result = await this.analytics.runAndReadAll(
      `SELECT module, channel, ${slot} AS slot, avg(value), min(value), max(value)
       FROM io_states
       WHERE cell_id = ${quote(cellId)} AND kind = 'AI'
         AND module IN (${modules.map((m) => m.slot)})
         AND ts >= ${tsMs(from - (from % stepMs))} AND ts < ${tsMs(to)}
       GROUP BY module, channel, slot ORDER BY slot`,
    );
    for (
      const [module, channel, s, mean, min, max] of result.getRows() as [
        number,
        number,
        bigint,
        number,
        number,
        number,
      ][]
    ) {
      const key = `${module}|${channel}`;
      const list = out.get(key) ?? [];
      list.push({ slot: Number(s), mean, min, max });
      out.set(key, list);
    }
    return out;
  }
}

function describe(cell: IoCell, m: ActiveIoModule, channel: number): ChannelHistoryDto {
  return {
    cell_id: cell.cell_id,
    node_name: cell.node_name,
    slot: m.slot,
    module_name: m.name,
    module_type: m.module_type,
    system_type: m.system_type,
    channel,
    unit: m.scale ? m.scale.unit : unitOf(m),
    scaled: m.scale !== null && m.module_type === "ANALOG_INPUT",
  };
}
