/**
 * Worker of the MQTT ingest benchmark: a gateway that publishes the batches of many cells with
 * QoS 1 (each with its cell's credential) and collects the platform's answers, timing from the
 * first publish to the last answer. Bodies are generated before the timed part.
 */
import mqtt from "mqtt";
import { generateBatch, type SimCell } from "../../core/simulator/mod.ts";
import { SEED } from "./lib/workload.ts";

/** One timed send: every cell's batch of `window`. */
export interface MqttJob {
  url: string;
  cells: SimCell[];
  window: number;
}

/** What a job measured. */
export interface MqttStats {
  rows: number;
  accepted: number;
  answers: number;
  statuses: Record<string, number>;
  sendMs: number;
}

async function runJob(job: MqttJob): Promise<MqttStats> {
  const bodies = job.cells.map((cell) => {
    const batch = generateBatch(cell, job.window, SEED);
    // Records the platform acknowledges: measurements and (protocol v2) PQ records.
    const rows = (batch?.measurements.length ?? 0) + (batch?.pq?.length ?? 0);
    return { cell, body: JSON.stringify(batch), rows };
  }).filter((b) => b.rows > 0);
  const stats: MqttStats = { rows: 0, accepted: 0, answers: 0, statuses: {}, sendMs: 0 };
  for (const b of bodies) stats.rows += b.rows;
  const client = await mqtt.connectAsync(job.url, {
    protocolVersion: 5,
    clientId: `bench-gateway-${crypto.randomUUID().slice(0, 8)}`,
  });
  await client.subscribeAsync("gridwatch/cells/+/answers", { qos: 1 });
  const done = new Promise<void>((resolve) => {
    client.on("message", (_topic, payload) => {
      const answer = JSON.parse(payload.toString()) as { status: number; accepted?: number };
      stats.answers++;
      stats.accepted += answer.accepted ?? 0;
      stats.statuses[answer.status] = (stats.statuses[answer.status] ?? 0) + 1;
      if (stats.answers === bodies.length) resolve();
    });
  });
  const start = performance.now();
  for (const { cell, body } of bodies) {
    client.publish(`gridwatch/cells/${cell.cellId}/batches`, body, {
      qos: 1,
      properties: {
        responseTopic: `gridwatch/cells/${cell.cellId}/answers`,
        userProperties: { authorization: `Bearer ${cell.credential}` },
      },
    });
  }
  await done;
  stats.sendMs = performance.now() - start;
  await client.endAsync();
  return stats;
}

self.onmessage = async (event: MessageEvent<MqttJob>) => {
  try {
    self.postMessage({ ok: true, stats: await runJob(event.data) });
  } catch (error) {
    self.postMessage({ ok: false, error: String(error) });
  }
};
