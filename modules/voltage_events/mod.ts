/**
 * @module
 * Power-quality events (pqe): the voltage events the cells record (dips, swells, RVC,
 * interruptions, MSV), listed per node or for the whole grid with their EN 50160 table cells,
 * RMS traces and magnitude-duration points, and the recordings the platform asks the cells for
 * through their configuration answer (docs/cell-configuration.md, "Commands").
 */
import type { CellCommandSource, CellsService } from "../grid/mod.ts";
import type { EventBus, Logger, PlatformModule } from "../../kernel/mod.ts";
import { type ExternalEvents, externalEvents } from "./external.ts";
import { RecordingsService, type RecordingTimeouts } from "./recordings.ts";
import { recordingCellRoutes, voltageEventsRoutes } from "./routes.ts";
import { type VoltageEventsDeps, VoltageEventsService } from "./service.ts";

export type {
  EventDetailDto,
  EventDto,
  EventPageDto,
  EventTablesDto,
  EventWorksDto,
} from "./contract.ts";
export { DIP_COLUMN_IDS, DIP_ROW_IDS, SWELL_COLUMN_IDS, SWELL_ROW_IDS } from "./contract.ts";
export { type PeriodEvents, VoltageEventsService } from "./service.ts";
export type { ExternalEvents, RecordingDownload } from "./external.ts";
export type { RecordingFinished } from "./events.ts";
export {
  DEFAULT_TIMEOUTS,
  RECORDING_FORMAT,
  type RecordingFile,
  RecordingsService,
  type RecordingTimeouts,
  sha256Hex,
  UPLOAD_COMMAND,
} from "./recordings.ts";

/** What the module needs from the composition root. */
export interface VoltageEventsModuleDeps extends VoltageEventsDeps {
  bus: EventBus;
  logger: Logger;
  cells: Pick<CellsService, "listFor" | "authenticate">;
  /** Registers the recording commands with the cells' configuration answer (grid). */
  addCommandSource: (source: CellCommandSource) => void;
  timeouts?: RecordingTimeouts;
  /** How often late downloads are failed with 518 (ms). */
  sweepMs?: number;
}

/** The module assembled. */
export interface VoltageEventsModule extends PlatformModule {
  service: VoltageEventsService;
  recordings: RecordingsService;
  /** The events as the external API (external_v1 pq) reads them. */
  external: ExternalEvents;
}

/** Sweeps for late downloads this often by default. */
const SWEEP_MS = 5_000;

/** Builds the power-quality events module (/pqe, and the cells' recording uploads at /ingest). */
export function voltageEventsModule(deps: VoltageEventsModuleDeps): VoltageEventsModule {
  const service = new VoltageEventsService(deps);
  const recordings = new RecordingsService({
    db: deps.db,
    bus: deps.bus,
    logger: deps.logger,
    events: service,
    ...(deps.timeouts ? { timeouts: deps.timeouts } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  });
  deps.addCommandSource((cellId) => recordings.commandsFor(cellId));
  let timer: ReturnType<typeof setInterval> | undefined;
  const sweep = () =>
    void recordings.sweep().catch((error) =>
      deps.logger.error("Recording sweep failed", { error })
    );
  return {
    name: "voltage_events",
    service,
    recordings,
    external: externalEvents(service, recordings, deps.analytics),
    api: [{ prefix: "/pqe", routes: voltageEventsRoutes(service, recordings) }],
    public: [{
      prefix: "/ingest",
      routes: recordingCellRoutes({ cells: deps.cells, recordings }),
    }],
    bodyLimits: [{ path: /^\/ingest\/v1\/recordings\/[^/]+$/, bytes: 4 * 1024 * 1024, raw: true }],
    start() {
      // Downloads whose deadline passed while the process was down fail now (518).
      sweep();
      timer = setInterval(sweep, deps.sweepMs ?? SWEEP_MS);
    },
    close() {
      clearInterval(timer);
      return Promise.resolve();
    },
  };
}
