/**
 * @module
 * Ingestion: the HTTP face of the cell protocol. Authenticates cells through the grid module and
 * hands their batches to the streaming core; collects the cells' device status.
 */
import type { Logger, PlatformModule } from "../../kernel/mod.ts";
import { type MqttIngestion, type MqttIngestionOptions, startMqttIngestion } from "./mqtt.ts";
import { type IngestionDeps, ingestionRoutes, MAX_BATCH_BYTES } from "./routes.ts";
import { StatusRecorder } from "./status_recorder.ts";

export { type IngestionDeps, MAX_BATCH_BYTES } from "./routes.ts";
export { STATUS_EVERY_MS, StatusRecorder } from "./status_recorder.ts";
export { BATCH_TOPIC, type MqttIngestionStats, SHARE_GROUP } from "./mqtt.ts";

/** The ingestion module; `statuses` writes the cells' device status (tests flush it). */
export interface IngestionModule extends PlatformModule {
  statuses: StatusRecorder;
  /** The MQTT subscriber, once started (when the broker is configured). */
  readonly mqtt: MqttIngestion | null;
}

/**
 * Builds the ingestion module: the cell protocol at /ingest (cells authenticate themselves)
 * and, with `mqtt`, the same protocol from an MQTT broker.
 */
export function ingestionModule(
  deps: IngestionDeps & { logger: Logger; mqtt?: MqttIngestionOptions | undefined },
): IngestionModule {
  const statuses = new StatusRecorder(
    (entries) => deps.cells.recordStatuses(entries),
    (error) => deps.logger.error("Device status write failed", { error }),
  );
  let subscriber: MqttIngestion | null = null;
  return {
    name: "ingestion",
    statuses,
    get mqtt() {
      return subscriber;
    },
    public: [{ prefix: "/ingest", routes: ingestionRoutes(deps, statuses) }],
    // The cell protocol reads and checks its own bytes (docs/ingestion-protocol.md).
    bodyLimits: [{ path: /^\/ingest\/v\d+\/batches$/, bytes: MAX_BATCH_BYTES, raw: true }],
    start() {
      statuses.start();
      if (deps.mqtt) subscriber = startMqttIngestion(deps, statuses, deps.mqtt);
    },
    async close() {
      await subscriber?.close();
      await statuses.stop();
    },
  };
}
