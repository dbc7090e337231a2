/**
 * Durability under SIGKILL: a server process is killed at random moments while cells send, and
 * restarted. Every acknowledged record must be stored exactly once, and no record twice.
 * KILLS (env CRASH_TEST_KILLS, default 4) sets how many times; the soak uses 20 or more.
 * Every other run sets DuckDB's checkpoint threshold to 1 KB, so that every commit is followed by
 * a checkpoint of the WAL into the file: those kills land in or right around a checkpoint.
 * Twelve cells send at once, so that acknowledgements often come from the ingest journal before
 * the DuckDB write (the journal's replay at start is what keeps those). The same test runs over
 * HTTP and over MQTT (mosquitto survives the kills; unacknowledged batches are redelivered).
 * Half the cells speak protocol v1 with PQ values on every 20-s record (folded in memory,
 * rebuilt from the journal after a kill): every stored window must be folded exactly once into
 * its slot's PQ record. The other half speak protocol v2 and send each slot's PQ records.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPlatform } from "../../main.ts";
import { SLOT_TABLES } from "../../core/mod.ts";
import { createLogger, loadConfig } from "../../kernel/mod.ts";
import mqtt from "mqtt";
import { checkStored, freePort, readStored } from "../helpers/acknowledged.ts";
import { brokerUnavailable, startBroker } from "../helpers/mosquitto.ts";

const KILLS = Number(Deno.env.get("CRASH_TEST_KILLS") ?? 4);
const CELLS = 12;

const SLOT_MS = 600_000;
type Measurement = { ts: string; phase: string; u: number };
type PqRecord = { slot: string; feeder: number; phase: string; pst: number; h_u: number[] };
/** A batch body: protocol v1 (PQ values on the measurements) or v2 (with `pq` records). */
type Body = { protocol?: 2; measurements: Measurement[]; pq?: PqRecord[] };
/** Sends one cell's batch; resolves true when acknowledged (200), false when not. */
type Send = (cell: number, body: Body) => Promise<boolean>;
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
      send: async (c, body) => {
        try {
          const res = await fetch(`${url}/ingest/v1/batches`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              authorization: `Bearer ${credentials[c]}`,
            },
            body: JSON.stringify(body),
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
        send: (c, body) => {
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
              JSON.stringify(body),
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
    const ackedPq = new Map<string, number>(); // `${cell}|${slot}|${phase}` -> pst (v2)
    // An hour ago, 25 windows into a slot: window 4 ends the first slot (v2 records).
    const hourAgo = Date.now() - 3_600_000;
    const start = hourAgo - (hourAgo % SLOT_MS) + 25 * 20_000;
    let window = 0;
    const tsOf = (w: number) => start - (start % 20_000) + w * 20_000;
    const batchFor = (w: number, c: number): Body => {
      const ms = tsOf(w);
      const ts = new Date(ms).toISOString();
      const measurements = ["L1", "L2", "L3"].map((phase, p) => ({
        ts,
        feeder: 1,
        phase,
        u: 220 + ((w * 7 + c * 3 + p) % 20),
        i: 10 + c,
        ...(c % 2 === 0 ? { pst: v1Pst(ms, c, p), h_u: new Array(24).fill(1), plt: 0.5 } : {}),
      }));
      if (c % 2 === 0) return { measurements };
      // Protocol v2: the slot's PQ records with its last window.
      const slot = ms + 20_000 - SLOT_MS;
      const pq = slot % SLOT_MS === 0
        ? ["L1", "L2", "L3"].map((phase, p) => ({
          slot: new Date(slot).toISOString(),
          feeder: 1,
          phase,
          pst: v2Pst(slot, c, p),
          h_u: new Array(24).fill(2),
        }))
        : [];
      return { protocol: 2, measurements, ...(pq.length ? { pq } : {}) };
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
          const body = batchFor(w, c);
          if (await sender.send(c, body)) {
            for (const m of body.measurements) {
              acked.set(`${cells[c]!.id}|${Date.parse(m.ts)}|${m.phase}`, m.u);
            }
            for (const r of body.pq ?? []) {
              ackedPq.set(`${cells[c]!.id}|${Date.parse(r.slot)}|${r.phase}`, r.pst);
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
    // The last stop (SIGTERM) stores the folds of the slots closed by then.
    const stoppedAt = Date.now() - 5_000;
    await sender.close();
    assert.ok(acked.size > 0, "some batches were acknowledged");
    const pq = await checkPq(dataDir, cells.map((c) => c.id), ackedPq, stoppedAt);

    const { stored, lost, duplicates, changed } = await checkStored(dataDir, acked);
    console.log(
      `crash test over ${transport.name}: ${KILLS} kills (${
        Math.floor((KILLS + 1) / 2)
      } with a checkpoint after every commit), ${acked.size} acknowledged records, ${stored} stored, ${lost.length} lost, ${duplicates} duplicated`,
    );
    console.log(
      `  PQ over ${transport.name}: ${pq.folds} folded records (${pq.windows} windows), ${ackedPq.size} acknowledged device records, ${pq.problems.length} problems`,
    );
    assert.deepEqual(lost, [], "acknowledged records lost");
    assert.equal(duplicates, 0, "records stored twice");
    assert.deepEqual(changed, [], "stored values differ from the acknowledged ones");
    assert.deepEqual(pq.problems, [], "PQ records lost, folded twice or changed");
    assert.ok(pq.folds > 0, "some protocol v1 slots were folded");
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Pst of a protocol v1 cell's 20-s record. */
const v1Pst = (ms: number, c: number, p: number) => ((ms / 20_000 * 5 + c + p) % 17) / 10;
/** Pst of a protocol v2 cell's 10-minute record. */
const v2Pst = (slot: number, c: number, p: number) => ((slot / SLOT_MS + c + p) % 13) / 10;

/**
 * Checks the PQ records of the stopped server: every stored 20-s record of a protocol v1 cell
 * (even cells) in a slot closed before `closedBefore` is folded exactly once (the windows mask
 * equals the stored windows, `n_h` their count, Pst their maximum); every acknowledged record
 * of a protocol v2 cell is stored once with its value and no fold replaced it.
 */
async function checkPq(
  dataDir: string,
  cellIds: readonly string[],
  ackedPq: ReadonlyMap<string, number>,
  closedBefore: number,
): Promise<{ folds: number; windows: number; problems: string[] }> {
  const [raw, records, keys] = await readStored(dataDir, [
    `SELECT s.cell_id, epoch_ms(r.ts), s.phase FROM raw_measurements r JOIN series s USING (series_id)`,
    `SELECT s.cell_id, epoch_ms(p.slot), s.phase, p.origin, p.windows, p.n_h, p.pst
     FROM pq_10min p JOIN series s USING (series_id)`,
    // The slot tables have no primary key: each writer keeps its keys unique.
    SLOT_TABLES.map((table) =>
      `SELECT '${table}', (SELECT count(*) FROM (SELECT series_id, slot FROM ${table}
         GROUP BY ALL HAVING count(*) > 1))`
    ).join(" UNION ALL "),
  ]);
  const problems: string[] = [];
  for (const [table, repeated] of keys as [string, bigint][]) {
    if (repeated > 0n) problems.push(`${table}: ${repeated} keys stored more than once`);
  }
  const expected = new Map<string, { windows: number; n: number; pst: number }>();
  for (const [cell, ms, phase] of raw as [string, bigint, number][]) {
    const c = cellIds.indexOf(cell);
    const ts = Number(ms);
    const slot = ts - (ts % SLOT_MS);
    if (c % 2 !== 0 || slot + SLOT_MS + 60_000 > closedBefore) continue;
    const key = `${cell}|${slot}|${phase}`;
    const e = expected.get(key) ?? { windows: 0, n: 0, pst: -Infinity };
    e.windows = (e.windows | (1 << ((ts % SLOT_MS) / 20_000))) >>> 0;
    e.n++;
    e.pst = Math.max(e.pst, Math.fround(v1Pst(ts, c, phase)));
    expected.set(key, e);
  }
  /** origin, windows, n_h, pst */
  type Stored = [number, number, number, number];
  const stored = new Map<string, Stored>();
  for (const [cell, slot, phase, ...values] of records as [string, bigint, number, ...number[]][]) {
    stored.set(`${cell}|${Number(slot)}|${phase}`, values.map(Number) as Stored);
  }
  let windows = 0;
  for (const [key, e] of expected) {
    const got = stored.get(key);
    windows += e.n;
    if (!got) problems.push(`${key}: fold missing`);
    else if (got[0] !== 2 || got[1] !== e.windows || got[2] !== e.n || got[3] !== e.pst) {
      problems.push(`${key}: fold ${got.join("/")} expected 2/${e.windows}/${e.n}/${e.pst}`);
    }
  }
  const phases = ["L1", "L2", "L3"];
  for (const [key, pst] of ackedPq) {
    const [cell, slot, phase] = key.split("|");
    const got = stored.get(`${cell}|${slot}|${phases.indexOf(phase!)}`);
    if (!got || got[0] !== 1 || got[3] !== Math.fround(pst)) {
      problems.push(`${key}: device record ${got?.join("/") ?? "missing"}, sent ${pst}`);
    }
  }
  return { folds: expected.size, windows, problems };
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
