/**
 * Durability under SIGKILL: a server process is killed at random moments while cells send, and
 * restarted. Every acknowledged record must be stored exactly once, and no record twice.
 * KILLS (env CRASH_TEST_KILLS, default 4) sets how many times; the soak uses 20 or more.
 * Every other run sets DuckDB's checkpoint threshold to 1 KB, so that every commit is followed by
 * a checkpoint of the WAL into the file: those kills land in or right around a checkpoint.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPlatform } from "../../main.ts";
import { createLogger, loadConfig } from "../../kernel/mod.ts";
import { checkStored, freePort } from "../helpers/acknowledged.ts";

const KILLS = Number(Deno.env.get("CRASH_TEST_KILLS") ?? 4);
const CELLS = 4;

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

Deno.test({
  name: `ingestion loses no acknowledged record and duplicates none across ${KILLS} SIGKILLs`,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await mkdtemp(join(tmpdir(), "gridwatch-crash-"));
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: url,
      SIMULATOR: "false",
      LOG_LEVEL: "error",
    };
    try {
      // Seed once in-process and take credentials for a few demo cells.
      const seeded = await startPlatform(loadConfig(env), createLogger("error"));
      const demo = (await seeded.services.customers.getByConnection("demo-ew"))!;
      const cells = (await seeded.services.cells.listFor(demo.key, "INSTALLED")).slice(0, CELLS);
      const credentials = await Promise.all(
        cells.map((c) => seeded.services.cells.rotateCredential(c.id)),
      );
      await seeded.close();

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
        const killer = round < KILLS
          ? setTimeout(() => child.kill("SIGKILL"), killAfter)
          : undefined;
        const deadline = Date.now() + (round < KILLS ? killAfter + 200 : 400);
        // Cells resend what was not acknowledged, then send new windows, a few batches in flight.
        while (Date.now() < deadline) {
          const work = pending.length
            ? pending.splice(0, CELLS)
            : cells.map((_, c) => ({ w: window, c }));
          if (!pending.length && work[0]?.w === window) window++;
          await Promise.all(work.map(async ({ w, c }) => {
            const measurements = batchFor(w, c);
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
              if (res.status !== 200) throw new Error(`status ${res.status}`);
              for (const m of measurements) {
                acked.set(`${cells[c]!.id}|${Date.parse(m.ts)}|${m.phase}`, m.u);
              }
            } catch {
              pending.push({ w, c });
            }
          }));
        }
        if (killer === undefined) {
          child.kill("SIGTERM");
        }
        clearTimeout(killer);
        await child.status;
      }
      assert.ok(acked.size > 0, "some batches were acknowledged");

      const { stored, lost, duplicates, changed } = await checkStored(dataDir, acked);
      console.log(
        `crash test: ${KILLS} kills (${
          Math.floor((KILLS + 1) / 2)
        } with a checkpoint after every commit), ${acked.size} acknowledged records, ${stored} stored, ${lost.length} lost, ${duplicates} duplicated`,
      );
      assert.deepEqual(lost, [], "acknowledged records lost");
      assert.equal(duplicates, 0, "records stored twice");
      assert.deepEqual(changed, [], "stored values differ from the acknowledged ones");
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  },
});
