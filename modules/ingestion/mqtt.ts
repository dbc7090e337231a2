/**
 * The cell protocol over MQTT (docs/ingestion-protocol.md, "MQTT"): cells or a gateway publish
 * each batch with QoS 1 to `gridwatch/cells/<cell id>/batches`, the cell's credential in the
 * MQTT 5 user property `authorization` (`Bearer <credential>`), and read the protocol's answer
 * on their response topic. The platform subscribes through the shared subscription
 * `$share/gridwatch/...`, so several instances split the cells between them, and sends its PUBACK
 * to the broker only once the batch is durably stored or refused for good (MQTT_CONNECTIONS
 * connections work in parallel): a batch that could
 * not be stored (503 over HTTP) stays in flight and is tried again, and the broker's in-flight
 * limit holds the cells back meanwhile; when the platform stops before acknowledging, the
 * broker delivers the batch again (persistent session).
 */
import mqtt, { type IClientOptions, type MqttClient } from "mqtt";
import type { CellsService } from "../grid/mod.ts";
import { AppError, type Logger } from "../../kernel/mod.ts";
import { type BatchAnswer, receiveBatch } from "./receive.ts";
import type { IngestionDeps } from "./routes.ts";
import type { StatusRecorder } from "./status_recorder.ts";

/** Where cells publish their batches; `+` is the cell id. */
export const BATCH_TOPIC = "gridwatch/cells/+/batches";
/** The shared subscription group of the platform's instances. */
export const SHARE_GROUP = "gridwatch";
/** A batch that could not be stored is tried again after this long (it stays in flight). */
const RETRY_MS = 1_000;
/**
 * Subscriber connections per instance, all in the shared group. A connection handles one batch
 * at a time (PUBACKs go out in the order of the PUBLISHes, MQTT 5 section 4.6, and the client
 * library waits for each), so the connections are what lets batches meet in the store's group
 * commit, like concurrent HTTP requests.
 */
export const MQTT_CONNECTIONS = 32;

/** MQTT 5 PUBACK reason codes used (a PUBACK ends the QoS 1 flow for the broker either way). */
const PUBACK = { success: 0, notAuthorized: 0x87, payloadInvalid: 0x99, error: 0x80 } as const;

/** Where the subscriber connects. */
export interface MqttIngestionOptions {
  url: string;
  /** Stable per instance: the broker keeps its session (unacknowledged batches) across restarts. */
  clientId: string;
}

/** Counters for operations and benchmarks. */
export interface MqttIngestionStats {
  received: number;
  stored: number;
  refused: number;
  retried: number;
}

/** The running subscriber. */
export interface MqttIngestion {
  readonly stats: MqttIngestionStats;
  /** Resolves once connected and subscribed (the first time). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

interface Deps extends IngestionDeps {
  cells: Pick<CellsService, "authenticate" | "recordStatuses">;
  logger: Logger;
}

const BEARER = /^Bearer (\S+)$/i;

/**
 * Connects to the broker and subscribes, in the background: a broker that is down at start is
 * tried again every 2 s, and the platform serves HTTP meanwhile.
 */
export function startMqttIngestion(
  deps: Deps,
  statuses: StatusRecorder,
  options: MqttIngestionOptions,
): MqttIngestion {
  const stats: MqttIngestionStats = { received: 0, stored: 0, refused: 0, retried: 0 };
  let closing = false;

  /** The answer and PUBACK reason of one message; null: not stored, try again later. */
  const handle = async (
    topic: string,
    payload: Uint8Array,
    authorization: string | undefined,
  ): Promise<{ reason: number; answer: unknown } | null> => {
    const topicCell = /^gridwatch\/cells\/([^/]+)\/batches$/.exec(topic)?.[1];
    const credential = authorization ? BEARER.exec(authorization)?.[1] : undefined;
    const cell = credential ? await deps.cells.authenticate(credential) : null;
    if (!cell || cell.cellId !== topicCell) {
      return {
        reason: PUBACK.notAuthorized,
        answer: errorAnswer(new AppError("common.unauthorized")),
      };
    }
    try {
      const answer: BatchAnswer = await receiveBatch(
        deps,
        statuses,
        cell,
        payload,
        (error) => deps.logger.error("Ingest storage failed", { cellId: cell.cellId, error }),
      );
      return { reason: PUBACK.success, answer: { status: answer.status, ...answer.body } };
    } catch (error) {
      if (error instanceof AppError && error.status === 503) return null;
      const refusal = error instanceof AppError ? error : new AppError("common.badRequest");
      return { reason: PUBACK.payloadInvalid, answer: errorAnswer(refusal) };
    }
  };

  const connect = (clientId: string): { client: MqttClient; ready: Promise<void> } => {
    const clientOptions: IClientOptions = {
      protocolVersion: 5,
      clientId,
      clean: false,
      properties: { sessionExpiryInterval: 7 * 86_400 },
      reconnectPeriod: 2_000,
      customHandleAcks: (topic, message, packet, done) => {
        stats.received++;
        const props = packet.properties?.userProperties ?? {};
        const raw = props.authorization;
        const authorization = Array.isArray(raw) ? raw[0] : raw;
        const attempt = async (): Promise<void> => {
          const result = await handle(topic, message, authorization).catch((error) => {
            deps.logger.error("MQTT batch failed", { topic, error });
            return null;
          });
          if (!result) {
            if (closing) return; // unacknowledged: the broker delivers it again
            stats.retried++;
            setTimeout(() => void attempt(), RETRY_MS);
            return;
          }
          if (result.reason === PUBACK.success) stats.stored++;
          else stats.refused++;
          const responseTopic = packet.properties?.responseTopic;
          if (responseTopic) {
            client.publish(responseTopic, JSON.stringify(result.answer), {
              qos: 1,
              properties: {
                contentType: "application/json",
                ...(packet.properties?.correlationData
                  ? { correlationData: packet.properties.correlationData }
                  : {}),
              },
            });
          }
          done(result.reason);
        };
        void attempt();
      },
    };
    // Referenced by the handler above, which runs only once connected.
    const client = mqtt.connect(options.url, clientOptions);
    client.on("error", (error) => deps.logger.warn("MQTT connection error", { error }));
    const ready = new Promise<void>((resolve) => {
      client.on("connect", () => {
        client.subscribeAsync(`$share/${SHARE_GROUP}/${BATCH_TOPIC}`, { qos: 1 }).then(
          () => resolve(),
          (error) => deps.logger.error("MQTT subscription failed", { error }),
        );
      });
    });
    return { client, ready };
  };
  const connections = Array.from(
    { length: MQTT_CONNECTIONS },
    (_, k) => connect(`${options.clientId}-${k}`),
  );
  const ready = Promise.all(connections.map((c) => c.ready)).then(() =>
    deps.logger.info("Subscribed to cell batches over MQTT", {
      url: options.url,
      connections: MQTT_CONNECTIONS,
    })
  );

  return {
    stats,
    ready,
    async close() {
      closing = true;
      await Promise.all(connections.map(({ client }) => client.endAsync()));
    },
  };
}

function errorAnswer(error: AppError): unknown {
  return { status: error.status, ...error.toBody() };
}
