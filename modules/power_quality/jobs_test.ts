import assert from "node:assert/strict";
import type { DuckDBConnection } from "@duckdb/node-api";
import { createLogger, EventBus, JobRunner, openMigratedDatabase } from "../../kernel/mod.ts";
import type { NodeDto } from "../grid/mod.ts";
import type { ReportDirectory } from "./directory.ts";
import type { ReportFinished } from "./events.ts";
import { ReportJobs } from "./jobs.ts";
import { LimitSetsService } from "./limit_sets.ts";
import { ReportsService } from "./service.ts";

const node = {
  id: "n1",
  name: "TS Seeblick",
  electrical_work: { key: "ew1", name: "TS Seeblick" },
  feeders: [{ id: "f1", name: "Transformer", slot: 1, type: "TRANSFORMER", parameters: {} }],
} as unknown as NodeDto;

Deno.test("ReportJobs: a report cancelled while it runs stays Cancelled, is not failed, announces nothing", async () => {
  const { database } = await openMigratedDatabase({ dataDir: ":memory:" });
  try {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const directory: ReportDirectory = {
      nodes: () => Promise.resolve([node]),
      node: () => Promise.resolve(node),
      cellsByNode: () => Promise.resolve(new Map([["n1", "cell-1"]])),
      series: () => [1, 2, 3],
      firstData: () => Promise.resolve(0),
      // The run waits here, In progress, until the test lets it go on.
      customer: async () => {
        await gate;
        return {
          name: "EW",
          nominalVoltage: 230,
          nominalVoltageMv: 9238,
          nominalFrequency: 50,
          timezone: "UTC",
        };
      },
    };
    const logger = createLogger("error");
    const bus = new EventBus(logger);
    const finished: ReportFinished[] = [];
    bus.subscribe("pq.reportFinished", (e) => void finished.push(e));
    // The load after the gate is refused: an aborted run must not be failed for it.
    const analytics = {
      run: () => Promise.reject(new Error("Closed")),
    } as unknown as DuckDBConnection;
    const jobs = new ReportJobs({ db: database.db, analytics, directory, bus, logger });
    const runner = new JobRunner(jobs, { name: "test", logger, pollMs: 60_000 });
    const service = new ReportsService(
      database.db,
      directory,
      runner,
      new LimitSetsService(database.db),
    );
    await runner.start();
    const monday = Date.UTC(2026, 10, 9);
    const { key } = await service.create({ customerKey: "c1", userId: "u1" }, {
      name: "Running",
      language: "en",
      node: "n1",
      start: new Date(monday).toISOString(),
      period: "P1D",
      standard: "EN50160",
    });
    for (let i = 0; i < 100 && (await service.get("c1", key)).status !== "IN_PROGRESS"; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal((await service.get("c1", key)).status, "IN_PROGRESS");
    assert.deepEqual(runner.runningIds(), [key]);
    const cancelled = await service.cancel("c1", key);
    assert.equal(cancelled.status, "CANCELLED");
    release();
    await runner.idle();
    const after = await service.get("c1", key);
    assert.equal(after.status, "CANCELLED");
    assert.equal(after.failure, null);
    assert.deepEqual(finished, []);
    await assert.rejects(service.cancel("c1", key), /pq.wrongReportStatus/);
    await runner.close();
  } finally {
    await database.close();
  }
});
