/**
 * Durability under SIGKILL: a server process is killed at random moments while cells send, and
 * restarted. Every acknowledged record must be stored exactly once, and no record twice.
 * KILLS (env CRASH_TEST_KILLS, default 4) sets how many times; the soak uses 20 or more.
 * Every other run sets DuckDB's checkpoint threshold to 1 KB, so that every commit is followed by
 * a checkpoint of the WAL into the file: those kills land in or right around a checkpoint.
 * Twelve cells send at once, so that acknowledgements often come from the ingest journal before
 * the DuckDB write (the journal's replay at start is what keeps those). The same test runs over
 * HTTP and over MQTT (mosquitto survives the kills; unacknowledged batches are redelivered).
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPlatform } from "../../main.ts";
import { createLogger, loadConfig } from "../../kernel/mod.ts";
import mqtt from "mqtt";
import { checkStored, freePort } from "../helpers/acknowledged.ts";
import { brokerUnavailable, startBroker } from "../helpers/mosquitto.ts";

const KILLS = Number(Deno.env.get("CRASH_TEST_KILLS") ?? 4);
const CELLS = 12;

type Measurement = { ts: string; phase: string; u: number };
/** Sends one cell's batch; resolves true when acknowledged (200), false when not. */
type Send = (cell: number, measurements: Measurement[]) => Promise<boolean>;
/** A transport of the cells: HTTP to the server, or MQTT through a broker. */
interface Transport {
  name: string;
  env: Record<string, string>;
  connect(url: string, cellIds: string[], credentials: string[]): Promise<{
    send: Send;
    close(): Promise<void>;
  }>;
}

const http: Transport = {
  name: "HTTP",
  env: {},
  connect(url, _cellIds, credentials) {
    return Promise.resolve({
      send: async (c, measurements) => {
        try {
          const res = await fetch(`${url}/ingest/v1/batches`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              authorization: `Bearer ${credentials[c]}`,
            },
            body: JSON.stringify({ measurements }),
          });
          await res.body?.cancel();
          return res.status === 200;
        } catch {
          return false;
        }
      },
      close: () => Promise.resolve(),
    });
  },
};

/** Cells publishing through a broker: an answer of 200 on the response topic is the ack. */
function mqttTransport(brokerUrl: string): Transport {
  return {
    name: "MQTT",
    env: { MQTT_URL: brokerUrl, MQTT_CLIENT_ID: "gridwatch-crash" },
    async connect(_url, cellIds, credentials) {
      const client = await mqtt.connectAsync(brokerUrl, {
        protocolVersion: 5,
        clientId: `crash-cells-${crypto.randomUUID().slice(0, 8)}`,
      });
      await client.subscribeAsync("gridwatch/cells/+/answers", { qos: 1 });
      const waiting = new Map<string, (ok: boolean) => void>();
      client.on("message", (_topic, payload, packet) => {
        const id = packet.properties?.correlationData?.toString() ?? "";
        waiting.get(id)?.((JSON.parse(payload.toString()) as { status: number }).status === 200);
        waiting.delete(id);
      });
      return {
        send: (c, measurements) => {
          const id = crypto.randomUUID();
          return new Promise<boolean>((resolve) => {
            // No answer in time: not acknowledged (the broker may still deliver it later,
            // which the store answers as duplicates when the cell resends).
            const timer = setTimeout(() => {
              waiting.delete(id);
              resolve(false);
            }, 2_000);
            waiting.set(id, (ok) => {
              clearTimeout(timer);
              resolve(ok);
            });
            client.publish(
              `gridwatch/cells/${cellIds[c]}/batches`,
              JSON.stringify({ measurements }),
              {
                qos: 1,
                properties: {
                  responseTopic: `gridwatch/cells/${cellIds[c]}/answers`,
                  correlationData: new TextEncoder().encode(id) as Buffer,
                  userProperties: { authorization: `Bearer ${credentials[c]}` },
                },
              },
            );
          });
        },
        close: () => client.endAsync(),
      };
    },
  };
}

async function waitReady(url: string, child: Deno.ChildProcess): Promise<void> {
  for (let k = 0; k < 300; k++) {
    try {
      const res = await fetch(`${url}/health`);
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error("Server did not become ready within 30 s");
}

/** Kills and restarts the server while the cells send over `transport`; checks the file. */
async function crashTest(transport: Transport): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "gridwatch-crash-"));
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: url,
    SIMULATOR: "false",
    LOG_LEVEL: "error",
    ...transport.env,
  };
  try {
    // Seed once in-process and take credentials for a few demo cells.
    const seeded = await startPlatform(loadConfig({ ...env, MQTT_URL: "" }), createLogger("error"));
    const demo = (await seeded.services.customers.getByConnection("demo-ew"))!;
    const cells = (await seeded.services.cells.listFor(demo.key, "INSTALLED")).slice(0, CELLS);
    const credentials = await Promise.all(
      cells.map((c) => seeded.services.cells.rotateCredential(c.id)),
    );
    await seeded.close();
    const sender = await transport.connect(url, cells.map((c) => c.id), credentials);

    const acked = new Map<string, number>(); // `${cell}|${ts}|${phase}` -> u
    const start = Date.now() - 3_600_000;
    let window = 0;
    const batchFor = (w: number, c: number) => {
      const ts = new Date(start - (start % 20_000) + w * 20_000).toISOString();
      return ["L1", "L2", "L3"].map((phase, p) => ({
        ts,
        feeder: 1,
        phase,
        u: 220 + ((w * 7 + c * 3 + p) % 20),
        i: 10 + c,
      }));
    };
    const pending: { w: number; c: number }[] = [];
    for (let round = 0; round <= KILLS; round++) {
      const checkpointing = round % 2 === 1;
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-all", "main.ts"],
        env: checkpointing ? { ...env, DUCKDB_CHECKPOINT_THRESHOLD: "1KB" } : env,
        stdout: "null",
        stderr: "null",
      }).spawn();
      await waitReady(url, child);
      const killAfter = 150 + Math.floor(Math.random() * 600);
      const killer = round < KILLS ? setTimeout(() => child.kill("SIGKILL"), killAfter) : undefined;
      const deadline = Date.now() + (round < KILLS ? killAfter + 200 : 400);
      // Cells resend what was not acknowledged, then send new windows, all cells at once.
      while (Date.now() < deadline) {
        const work = pending.length
          ? pending.splice(0, CELLS)
          : cells.map((_, c) => ({ w: window, c }));
        if (!pending.length && work[0]?.w === window) window++;
        await Promise.all(work.map(async ({ w, c }) => {
          const measurements = batchFor(w, c);
          if (await sender.send(c, measurements)) {
            for (const m of measurements) {
              acked.set(`${cells[c]!.id}|${Date.parse(m.ts)}|${m.phase}`, m.u);
            }
          } else pending.push({ w, c });
        }));
      }
      if (killer === undefined) {
        // The last round: answers of redelivered batches come in before the stop.
        await new Promise((r) => setTimeout(r, 500));
        child.kill("SIGTERM");
      }
      clearTimeout(killer);
      await child.status;
    }
    await sender.close();
    assert.ok(acked.size > 0, "some batches were acknowledged");

    const { stored, lost, duplicates, changed } = await checkStored(dataDir, acked);
    console.log(
      `crash test over ${transport.name}: ${KILLS} kills (${
        Math.floor((KILLS + 1) / 2)
      } with a checkpoint after every commit), ${acked.size} acknowledged records, ${stored} stored, ${lost.length} lost, ${duplicates} duplicated`,
    );
    assert.deepEqual(lost, [], "acknowledged records lost");
    assert.equal(duplicates, 0, "records stored twice");
    assert.deepEqual(changed, [], "stored values differ from the acknowledged ones");
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

Deno.test({
  name:
    `ingestion over HTTP loses no acknowledged record and duplicates none across ${KILLS} SIGKILLs`,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () => crashTest(http),
});

const noBroker = brokerUnavailable();
if (noBroker) console.log(`MQTT crash test skipped: ${noBroker}`);

Deno.test({
  name:
    `ingestion over MQTT loses no acknowledged record and duplicates none across ${KILLS} SIGKILLs`,
  ignore: noBroker !== null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const broker = await startBroker();
    try {
      await crashTest(mqttTransport(broker.url));
    } finally {
      await broker.stop();
    }
  },
});
