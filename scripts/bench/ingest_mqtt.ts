/**
 * End-to-end ingest over MQTT: Debian's mosquitto in front of the platform (MQTT_URL), a gateway
 * in a worker publishing every cell's batch of a 20-s window with QoS 1, the platform storing
 * them through the same journal and answering on each cell's response topic. Timed from the
 * first publish to the last answer (every answer comes after its batch is journaled).
 */
import { WINDOW_MS } from "../../core/simulator/mod.ts";
import { startBroker } from "../../tests/helpers/mosquitto.ts";
import type { MqttJob, MqttStats } from "./ingest_mqtt_client.ts";
import { realTimeFactor, type Sizes } from "./lib/options.ts";
import { startBenchPlatform } from "./lib/platform.ts";
import { atLeast, type Result } from "./lib/report.ts";
import { perSecond, summarize } from "./lib/stats.ts";

function runWorker(job: MqttJob): Promise<MqttStats> {
  const worker = new Worker(new URL("./ingest_mqtt_client.ts", import.meta.url), {
    type: "module",
  });
  return new Promise<MqttStats>((resolve, reject) => {
    worker.onmessage = (event) => {
      const data = event.data as { ok: true; stats: MqttStats } | { ok: false; error: string };
      worker.terminate();
      if (data.ok) resolve(data.stats);
      else reject(new Error(`Cannot run the MQTT cells: ${data.error}`));
    };
    worker.postMessage(job);
  });
}

/** Measures MQTT ingest of `sizes.ingestCells` cells, one window per batch. */
export async function benchIngestMqtt(dir: string, sizes: Sizes): Promise<Result[]> {
  const broker = await startBroker();
  try {
    const bench = await startBenchPlatform(dir, sizes.ingestCells, undefined, {
      MQTT_URL: broker.url,
      MQTT_CLIENT_ID: "gridwatch-bench",
    });
    try {
      await bench.platform.services.ingestion.mqtt!.ready;
      const now = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS;
      const ticks = sizes.ingestTicks + 1;
      const runs: MqttStats[] = [];
      for (let t = 0; t <= ticks; t++) {
        const stats = await runWorker({
          url: broker.url,
          cells: bench.cells,
          window: now - (ticks + 2 - t) * WINDOW_MS,
        });
        if (stats.accepted !== stats.rows) {
          throw new Error(
            `Cannot trust MQTT tick ${t}: ${stats.accepted} of ${stats.rows} rows accepted, ` +
              `answers ${JSON.stringify(stats.statuses)}`,
          );
        }
        if (t > 0) runs.push(stats); // the first tick creates the series
      }
      const rate = perSecond(
        runs.reduce((a, s) => a + s.accepted, 0),
        runs.reduce((a, s) => a + s.sendMs, 0),
      );
      const n = bench.cells.length;
      console.log(
        `  MQTT ingest: ${n} cells, ${runs.length} ticks; tick p50 ${
          summarize(runs.map((s) => s.sendMs)).p50.toFixed(0)
        } ms`,
      );
      return [
        {
          name: `MQTT ingest (mosquitto, QoS 1), 1 window/batch, ${n} cells`,
          value: rate,
          unit: "rows/s",
          basis: { kind: "engine", rowsPerSec: rate },
        },
        {
          name: `  real-time factor at ${n} cells over MQTT`,
          value: realTimeFactor(rate, n),
          unit: "x",
          target: atLeast(25, ">= 25 x at 5,000 cells"),
          scaled: n < 5_000,
        },
      ];
    } finally {
      await bench.close();
    }
  } finally {
    await broker.stop();
  }
}
