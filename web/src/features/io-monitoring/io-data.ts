/**
 * The IO monitoring answers (docs/contracts.md, "IO monitoring: /iom") and the pure rules of the
 * screen: the periods offered, the search, the summary of an electrical work, stale values.
 */

import type { IoElectricalWorkDto as IoElectricalWork } from "../../../../modules/io_monitoring/contract.ts";

export type {
  ChannelDto as IoChannel,
  IoCellDto as IoCell,
  IoElectricalWorkDto as IoElectricalWork,
  IoElectricalWorksDto as IoElectricalWorks,
  IoHistoryDto as IoHistory,
  IoModuleDto as IoModule,
  IoModuleType as ModuleType,
  IoResolution as Resolution,
} from "../../../../modules/io_monitoring/contract.ts";

/** The periods offered on the screen, newest data at the right edge. */
export const PERIODS = ["24h", "7d", "30d"] as const;
export type Period = (typeof PERIODS)[number];
const PERIOD_MS: Record<Period, number> = {
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
};

/** Reads the period URL parameter (24h when missing or unknown). */
export function parsePeriod(value: unknown): Period {
  return (PERIODS as readonly unknown[]).includes(value) ? value as Period : "24h";
}

/** The period ending now, to the minute (so refreshes within a minute ask the same). */
export function periodRange(period: Period, now: number): { from: string; to: string } {
  const to = now - (now % 60_000) + 60_000;
  return {
    from: new Date(to - PERIOD_MS[period]).toISOString(),
    to: new Date(to).toISOString(),
  };
}

/** The electrical works whose name, type label or node names contain the search text. */
export function searchWorks(
  works: readonly IoElectricalWork[],
  query: string,
): IoElectricalWork[] {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return [...works];
  return works.filter((w) =>
    w.name.toLocaleLowerCase().includes(q) ||
    w.cells.some((c) => c.node_name.toLocaleLowerCase().includes(q))
  );
}

/**
 * A channel that sent nothing in the 2 days the newest values are looked for in: not wired, or
 * long dead. The screen says "not in use" rather than a bare "no data".
 */
export function isUnused(channel: { value: number | null; at: string | null }): boolean {
  return channel.value === null && channel.at === null;
}

/** Digital inputs that are on, and the newest data time, of an electrical work. */
export function summary(work: IoElectricalWork): { inputsOn: number; lastData: string | null } {
  let inputsOn = 0;
  let lastData: string | null = null;
  for (const cell of work.cells) {
    if (cell.last_data_at && (!lastData || cell.last_data_at > lastData)) {
      lastData = cell.last_data_at;
    }
    for (const m of cell.modules) {
      if (m.module_type !== "DIGITAL_INPUT") continue;
      inputsOn += m.channels.filter((c) => c.value === 1).length;
    }
  }
  return { inputsOn, lastData };
}

/** A value is stale when the cell sent nothing for 10 minutes (it normally sends every 20 s). */
export const STALE_MS = 10 * 60_000;
export function isStale(at: string | null, now: number): boolean {
  return at !== null && now - Date.parse(at) > STALE_MS;
}

/** Whether a series holds at least one value. */
export function hasValues(values: readonly (number | null)[]): boolean {
  return values.some((v) => v !== null);
}

/**
 * A step series for the chart, spanning the whole period: edges without a state are gaps, and a
 * state reaches up to the gap after it (a stepped line draws a level only up to a next value,
 * so the gap starts 1 ms after the state's last instant).
 */
export function stepData(
  points: readonly { t: number; value: 0 | 1 | null }[],
  from: number,
  to: number,
): { times: number[]; values: (number | null)[] } {
  const times: number[] = [];
  const values: (number | null)[] = [];
  if (!points.length || points[0]!.t > from) {
    times.push(from);
    values.push(null);
  }
  for (const p of points) {
    const held = values[values.length - 1];
    if (p.value === null && held !== null && held !== undefined) {
      times.push(p.t);
      values.push(held);
      times.push(p.t + 1);
      values.push(null);
      continue;
    }
    times.push(p.t);
    values.push(p.value);
  }
  if (times[times.length - 1]! < to) {
    times.push(to);
    values.push(null);
  }
  return { times, values };
}
