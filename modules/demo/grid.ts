/**
 * The demo utility's grid: one substation near Lucerne, three MV feeders, five LV grids with
 * transformer stations, street cabinets, a PV plant and an EV charging park, one cell per
 * measured node. Two stations also measure an outgoing MV line (the MV level). Profiles tell
 * the simulator what each LV grid feeds.
 */
import {
  type CellOnboardingService,
  type CellsService,
  createStructure,
  mapStraight,
  type NewStationGroup,
} from "../grid/mod.ts";
import type { Db } from "../../kernel/mod.ts";

/** The load a simulated LV grid feeds. */
export type DemoProfile = "residential" | "commercial" | "industrial" | "mixed";

type NodeSpec = NewStationGroup["mvFeederGroups"][number]["lvGroups"][number]["nodes"][number];
type FeederSpec = NodeSpec["feeders"][number];

/** The MV-side rated current of a 630 kVA transformer at 16 kV: 630 / (sqrt(3) x 16) A. */
const MV_RATED_CURRENT_A = 22.73;

/**
 * A transformer station with `outputs` LV lines. With `mvLine`, its cell also measures an
 * outgoing MV line with MV sensors in the next free slot; the grid setup then requires MV
 * voltage estimation on the transformer (code 309), which the cell reports from the MV side.
 */
const station = (
  name: string,
  lat: number,
  lng: number,
  outputs: number,
  mvLine?: string,
): NodeSpec => ({
  name,
  electricalWork: { name, type: "MV_LV_STATION" },
  latitude: lat,
  longitude: lng,
  electricalDistance: 0,
  feeders: [
    {
      slot: 1,
      name: "Transformer 630 kVA",
      type: "TRANSFORMER",
      direction: "IN",
      nominalCurrentA: mvLine ? MV_RATED_CURRENT_A : 909,
      parameters: {
        impedanceVoltage: 4,
        vectorGroup: "Dy5",
        lvOperatingTap: 400,
        mvOperatingTap: 16,
        nominalMvVoltage: 16,
        nominalPower: 630,
        mvVoltageEstimation: mvLine !== undefined,
      },
    },
    ...Array.from({ length: outputs }, (_, k): FeederSpec => ({
      slot: k + 2,
      name: `LV line ${k + 1}`,
      type: "LV_LINE",
      direction: "OUT",
      nominalCurrentA: 250,
      parameters: { meshed: false },
    })),
    ...(mvLine
      ? [
        {
          slot: outputs + 2,
          name: mvLine,
          type: "MV_LINE",
          direction: "OUT",
          nominalCurrentA: 200,
          parameters: { meshed: false },
        } satisfies FeederSpec,
      ]
      : []),
  ],
});

const cabinet = (
  name: string,
  lat: number,
  lng: number,
  distance: number,
  extra?: FeederSpec,
): NodeSpec => ({
  name,
  electricalWork: { name, type: "LV_CABINET" },
  latitude: lat,
  longitude: lng,
  electricalDistance: distance,
  feeders: [
    { slot: 1, name: "Incoming line", type: "LV_LINE", direction: "IN", nominalCurrentA: 250 },
    { slot: 2, name: "Outgoing line A", type: "LV_LINE", direction: "OUT", nominalCurrentA: 160 },
    ...(extra ? [extra] : []),
  ],
});

/** LV grid name -> profile, for the simulator. */
export const DEMO_PROFILES: Record<string, DemoProfile> = {
  "LV grid Seeblick": "residential",
  "LV grid Dorf": "mixed",
  "LV grid Industrie": "industrial",
  "LV grid Schulhaus": "commercial",
  "LV grid Hang": "residential",
};

/** The demo structure (coordinates around Kriens/Lucerne). */
export const DEMO_GRID: NewStationGroup[] = [{
  name: "Substation Lucerne South",
  latitude: 47.0321,
  longitude: 8.2797,
  mvFeederGroups: [
    {
      name: "MV feeder Seeblick",
      lvGroups: [
        {
          name: "LV grid Seeblick",
          nodes: [
            station("TS Seeblick", 47.0368, 8.2864, 3),
            cabinet("CAB Seeblick 1", 47.0374, 8.2881, 0.3),
            cabinet("CAB Seeblick 2", 47.0381, 8.2899, 0.55),
            cabinet("CAB Seeblick 3", 47.0389, 8.2915, 0.8),
            cabinet("CAB Seeblick 4", 47.0395, 8.2932, 1),
          ],
        },
        {
          name: "LV grid Dorf",
          nodes: [
            station("TS Dorf", 47.0335, 8.2781, 3, "MV line to Obernau"),
            cabinet("CAB Dorfplatz", 47.0341, 8.2769, 0.35),
            cabinet("CAB Kirchweg", 47.0349, 8.2752, 0.6, {
              slot: 3,
              name: "PV roof school",
              type: "PV_INVERTER",
              direction: "IN",
              nominalCurrentA: 63,
              parameters: { minimumPowerFactor: 0.9 },
            }),
            cabinet("CAB Mühlebach", 47.0357, 8.2738, 0.9),
          ],
        },
      ],
    },
    {
      name: "MV feeder Industrie",
      lvGroups: [
        {
          name: "LV grid Industrie",
          nodes: [
            station("TS Industrie", 47.0289, 8.2712, 4, "MV line to TS Schulhaus"),
            cabinet("CAB Werkstrasse", 47.0281, 8.2698, 0.4),
            cabinet("CAB Lagerhaus", 47.0274, 8.2681, 0.7),
            cabinet("CAB Gleisfeld", 47.0266, 8.2665, 1),
          ],
        },
        {
          name: "LV grid Schulhaus",
          nodes: [
            station("TS Schulhaus", 47.0306, 8.2838, 2),
            cabinet("CAB Turnhalle", 47.0312, 8.2851, 0.5, {
              slot: 3,
              name: "EV chargers",
              type: "EVSE",
              direction: "OUT",
              nominalCurrentA: 96,
            }),
            cabinet("CAB Pausenplatz", 47.0318, 8.2866, 0.9),
          ],
        },
      ],
    },
    {
      name: "MV feeder Hang",
      lvGroups: [{
        name: "LV grid Hang",
        nodes: [
          station("TS Hang", 47.0262, 8.2889, 3),
          cabinet("CAB Rebberg", 47.0255, 8.2903, 0.3),
          cabinet("CAB Sonnhalde", 47.0248, 8.2918, 0.6, {
            slot: 3,
            name: "Home chargers",
            type: "EVSE",
            direction: "OUT",
            nominalCurrentA: 63,
          }),
          cabinet("CAB Waldrand", 47.0241, 8.2934, 1),
        ],
      }],
    },
  ],
}];

/**
 * Creates the demo grid and one installed cell per node; returns the cell ids by node name. The
 * cells are registered like real ones (the onboarding service behind POST /gsm/cells); their
 * credentials are not kept: the simulation issues fresh ones at every start.
 */
export async function seedDemoGrid(
  db: Db,
  cells: CellsService,
  onboarding: CellOnboardingService,
  customerKey: string,
): Promise<Map<string, string>> {
  const nodeIds = await createStructure(db, customerKey, DEMO_GRID);
  const cellIds = new Map<string, string>();
  let serial = 1;
  for (const [nodeName, nodeId] of nodeIds) {
    const { cell_id: cellId } = await onboarding.register(customerKey, {
      serial_number: `GW-2026-${String(serial++).padStart(4, "0")}`,
    });
    await cells.install(cellId, nodeId);
    await mapStraight(db, cellId, nodeId);
    cellIds.set(nodeName, cellId);
  }
  await seedDemoSpareCells(cells, onboarding, customerKey);
  return cellIds;
}

/**
 * Cells not in the grid yet: four in stock (one a DTVI device) and three waiting for
 * installation, two of which have contacted the platform (GPS and GSM known, linkable).
 */
async function seedDemoSpareCells(
  cells: CellsService,
  onboarding: CellOnboardingService,
  customerKey: string,
): Promise<void> {
  for (const serial of ["GW-2026-0021", "GW-2026-0022", "GW-2026-0023"]) {
    await onboarding.register(customerKey, { serial_number: serial });
  }
  await onboarding.register(customerKey, { serial_number: "DTVI-2026-0001", device_model: "DTVI" });
  const waiting = [
    { serial: "GW-2026-0024", seen: { gps_fix: "GPS_FIX", gsm_signal: "EXCELLENT" } },
    { serial: "GW-2026-0025", seen: { gps_fix: "DGPS_FIX", gsm_signal: "FAIR" } },
    { serial: "GW-2026-0026", seen: null },
  ];
  for (const { serial, seen } of waiting) {
    const { cell_id: cellId } = await onboarding.register(customerKey, { serial_number: serial });
    await cells.toWaiting(cellId, seen ? null : "Mounting bracket missing, ask the depot");
    if (seen) await cells.recordStatus(cellId, { firmware: "2.4.1", ...seen });
  }
}

/**
 * The second utility's grid (around Berne): not measured yet, so every node shows no data. It
 * makes a super role's switch of customer visible on every screen.
 */
export const OTHER_GRID: NewStationGroup[] = [{
  name: "Substation Bern West",
  latitude: 46.9421,
  longitude: 7.4212,
  mvFeederGroups: [{
    name: "MV feeder Bümpliz",
    lvGroups: [{
      name: "LV grid Bethlehem",
      nodes: [
        station("TS Bethlehem", 46.9432, 7.3941, 2),
        cabinet("CAB Brünnen", 46.9445, 7.3912, 0.4),
        cabinet("CAB Eymatt", 46.9458, 7.3884, 0.8),
      ],
    }],
  }],
}];

/** Creates the second utility's grid (no cells). */
export async function seedOtherGrid(db: Db, customerKey: string): Promise<void> {
  await createStructure(db, customerKey, OTHER_GRID);
}
