/** Cells for the simulator's tests and benchmark: one of each kind of node and profile. */
import type { LoadProfile, SimCell, SimFeeder } from "./topology.ts";

/** A cell with the given feeders and defaults for everything else. */
export function testCell(
  cellId: string,
  feeders: SimFeeder[],
  extra: Partial<SimCell> = {},
): SimCell {
  return {
    cellId,
    credential: `${cellId}.secret-${cellId.length}`,
    nodeKind: "LV_CABINET",
    nominalVoltage: 230,
    frequency: 50,
    electricalDistance: 0.5,
    feeders,
    ...extra,
  };
}

/** A cabinet with one LV line of `profile`. */
export function lineCell(cellId: string, profile: LoadProfile, distance = 0.5): SimCell {
  return testCell(cellId, [{ slot: 1, kind: "LV_LINE", nominalCurrentA: 250, profile }], {
    electricalDistance: distance,
  });
}

/** A station with a transformer and lines with PV and EV behind them. */
export function stationCell(cellId: string): SimCell {
  return testCell(cellId, [
    { slot: 1, kind: "TRANSFORMER", nominalCurrentA: 910, profile: "mixed" },
    { slot: 2, kind: "LV_LINE", nominalCurrentA: 250, profile: "residential", pvPeakA: 60 },
    { slot: 3, kind: "LV_LINE", nominalCurrentA: 160, profile: "commercial", evPeakA: 32 },
  ], { nodeKind: "MV_LV_STATION", electricalDistance: 0 });
}

/** An actuator node with one feeder of each actuator kind. */
export function actuatorCell(cellId: string): SimCell {
  return testCell(cellId, [
    { slot: 1, kind: "PV_INVERTER", nominalCurrentA: 40, profile: "residential" },
    { slot: 2, kind: "BATTERY", nominalCurrentA: 25, profile: "residential" },
    { slot: 3, kind: "EVSE", nominalCurrentA: 64, profile: "residential" },
    { slot: 4, kind: "BOILER", nominalCurrentA: 20, profile: "residential" },
    { slot: 5, kind: "MV_LINE", nominalCurrentA: 100, profile: "industrial" },
  ], { nodeKind: "LV_ACTUATOR", electricalDistance: 0.9 });
}

/**
 * A demo-sized utility of 30 cells, about 240 rows a window (14.5 million rows in 14 days):
 * 6 stations, 18 cabinets with two lines each and 6 actuator nodes.
 */
export function utilityCells(): SimCell[] {
  const cells: SimCell[] = [];
  const profiles: LoadProfile[] = ["residential", "commercial", "industrial", "mixed"];
  for (let k = 0; k < 6; k++) cells.push(stationCell(`station-${k}`));
  for (let k = 0; k < 18; k++) {
    const profile = profiles[k % 4]!;
    cells.push(testCell(`cabinet-${k}`, [
      { slot: 1, kind: "LV_LINE", nominalCurrentA: 250, profile, pvPeakA: k % 3 === 0 ? 40 : 0 },
      { slot: 2, kind: "LV_LINE", nominalCurrentA: 160, profile: "residential", evPeakA: 16 },
    ], { electricalDistance: (k % 6) / 5, swappedMapping: k === 7 }));
  }
  const kinds = ["PV_INVERTER", "EVSE", "BOILER", "BATTERY", "PV_INVERTER", "EVSE"] as const;
  for (let k = 0; k < 6; k++) {
    cells.push(testCell(`actuator-${k}`, [
      { slot: 1, kind: kinds[k]!, nominalCurrentA: 32, profile: "residential" },
    ], { nodeKind: "LV_ACTUATOR", electricalDistance: 0.8 }));
  }
  return cells;
}

/** The phase-neutral nominal voltage of a 16 kV MV grid. */
export const MV_NOMINAL_16KV = 16_000 / Math.sqrt(3);

/**
 * `stationCell` whose cell also measures an outgoing MV line (slot 6) and reports the
 * transformer from the MV side (MV voltage estimation, MV-side rated current).
 */
export function mvStationCell(cellId: string): SimCell {
  const station = stationCell(cellId);
  return {
    ...station,
    mvNominalVoltage: MV_NOMINAL_16KV,
    feeders: [
      { ...station.feeders[0]!, nominalCurrentA: 22.73, mvEstimation: true },
      ...station.feeders.slice(1),
      { slot: 6, kind: "MV_LINE", nominalCurrentA: 200, profile: "mixed" },
    ],
  };
}
