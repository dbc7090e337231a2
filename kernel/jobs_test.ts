import assert from "node:assert/strict";
import { type JobContext, type JobQueue, JobRunner } from "./jobs.ts";
import { createLogger } from "./logger.ts";

type Status = "queued" | "running" | "done" | "failed" | "cancelled";
interface Job {
  id: string;
  status: Status;
  due: number;
  progress: [number, string?][];
  reason?: string;
}

/** An in-memory job table with the semantics a module's SQL table has. */
class Table implements JobQueue<Job> {
  rows = new Map<string, Job>();
  recovered = 0;
  constructor(readonly work: (job: Job, ctx: JobContext) => Promise<void>) {}
  add(id: string, due = 0): Job {
    const job: Job = { id, status: "queued", due, progress: [] };
    this.rows.set(id, job);
    return job;
  }
  claim(limit: number, now: Date): Promise<Job[]> {
    const due = [...this.rows.values()]
      .filter((j) => j.status === "queued" && j.due <= now.getTime())
      .slice(0, limit);
    for (const job of due) job.status = "running";
    return Promise.resolve(due);
  }
  async run(job: Job, ctx: JobContext): Promise<void> {
    await this.work(job, ctx);
    if (job.status === "running") job.status = "done";
  }
  fail(job: Job, error: unknown): Promise<void> {
    if (job.status === "running") {
      job.status = "failed";
      job.reason = (error as Error).message;
    }
    return Promise.resolve();
  }
  saveProgress(job: Job, percent: number, stage?: string): Promise<void> {
    job.progress.push([percent, stage]);
    return Promise.resolve();
  }
  recover(): Promise<void> {
    for (const job of this.rows.values()) {
      if (job.status === "running") {
        job.status = "queued";
        this.recovered++;
      }
    }
    return Promise.resolve();
  }
}

const logger = createLogger("error");

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

Deno.test("jobs: runs the due jobs at most `concurrency` at a time, ends them, and fails a throw", async () => {
  let active = 0;
  let peak = 0;
  const table = new Table(async (job) => {
    active++;
    peak = Math.max(peak, active);
    await new Promise((r) => setTimeout(r, 5));
    active--;
    if (job.id === "bad") throw new Error("disk full");
  });
  for (const id of ["a", "b", "c", "bad"]) table.add(id);
  table.add("later", Date.now() + 60_000);
  const runner = new JobRunner(table, { name: "t", concurrency: 2, pollMs: 60_000, logger });
  await runner.start();
  await runner.idle();
  await runner.close();
  assert.deepEqual(peak, 2);
  assert.deepEqual([...table.rows.values()].map((j) => j.status), [
    "done",
    "done",
    "done",
    "failed",
    "queued",
  ]);
  assert.deepEqual(table.rows.get("bad")!.reason, "disk full");
});

Deno.test("jobs: progress is throttled, clamped and written in order", async () => {
  const table = new Table((_job, ctx) => {
    ctx.progress(-5, "load");
    ctx.progress(50, "evaluate");
    ctx.progress(150, "render");
    return Promise.resolve();
  });
  table.add("a");
  const runner = new JobRunner(table, { name: "t", pollMs: 60_000, progressEveryMs: 0, logger });
  await runner.start();
  await runner.idle();
  await runner.close();
  assert.deepEqual(table.rows.get("a")!.progress, [[0, "load"], [50, "evaluate"], [100, "render"]]);

  const slow = new Table((_job, ctx) => {
    for (let i = 0; i < 100; i++) ctx.progress(i);
    return Promise.resolve();
  });
  slow.add("b");
  const throttled = new JobRunner(slow, { name: "t", pollMs: 60_000, logger });
  await throttled.start();
  await throttled.idle();
  await throttled.close();
  assert.deepEqual(slow.rows.get("b")!.progress, [[0, undefined]]);
});

Deno.test("jobs: a cancelled job stops and is not failed; the next job starts in its slot", async () => {
  const table = new Table(async (job, ctx) => {
    if (job.id === "long") await untilAborted(ctx.signal);
  });
  const long = table.add("long");
  table.add("next");
  const runner = new JobRunner(table, { name: "t", pollMs: 60_000, logger });
  await runner.start();
  while (!runner.runningIds().length) await new Promise((r) => setTimeout(r, 1));
  assert.deepEqual(runner.runningIds(), ["long"]);
  long.status = "cancelled"; // the module marks the row, then aborts the work
  assert.ok(runner.cancel("long"));
  assert.ok(!runner.cancel("unknown"));
  await runner.idle();
  await runner.close();
  assert.deepEqual(long.status, "cancelled");
  assert.deepEqual(table.rows.get("next")!.status, "done");
});

Deno.test("jobs: close aborts the running job without failing it, and the next start recovers it", async () => {
  const table = new Table((_job, ctx) => untilAborted(ctx.signal));
  table.add("a");
  const first = new JobRunner(table, { name: "t", pollMs: 60_000, logger });
  await first.start();
  await first.close();
  assert.deepEqual(table.rows.get("a")!.status, "running");

  const restarted = new Table(() => Promise.resolve());
  restarted.rows = table.rows;
  const second = new JobRunner(restarted, { name: "t", pollMs: 60_000, logger });
  await second.start();
  await second.idle();
  await second.close();
  assert.deepEqual(restarted.recovered, 1);
  assert.deepEqual(table.rows.get("a")!.status, "done");
});

Deno.test("jobs: a job that becomes due is found by the poll; wake after close does nothing", async () => {
  const table = new Table(() => Promise.resolve());
  const job = table.add("soon", Date.now() + 30);
  const runner = new JobRunner(table, { name: "t", pollMs: 20, logger });
  await runner.start();
  while (job.status !== "done") await new Promise((r) => setTimeout(r, 10));
  await runner.close();
  table.add("after");
  runner.wake();
  await runner.idle();
  assert.deepEqual(table.rows.get("after")!.status, "queued");
});
