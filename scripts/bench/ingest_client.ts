/**
 * Web worker playing the cells: generates the batches of a job and their requests' bytes
 * (untimed), then posts them to `POST /ingest/v1/batches` on `concurrency` kept-alive connections
 * (lib/raw_http.ts: a fraction of `fetch`'s cost per request, which took the core the platform is
 * measured on) and reports the time the sending took. Runs off the server's thread so that the
 * server keeps its own core, as remote cells would.
 */
/// <reference lib="deno.worker" />
import process from "node:process";
import { generateBatch, type ProtocolVersion, type SimCell } from "../../core/simulator/mod.ts";
import { mapBounded } from "./lib/timing.ts";
import { postRequest, RawHttpPool } from "./lib/raw_http.ts";
import { mergeBatches, SEED } from "./lib/workload.ts";

/** One job: every cell sends `windows` (epoch ms starts) as one batch per cell. */
export interface IngestJob {
  baseUrl: string;
  cells: SimCell[];
  windows: number[];
  concurrency: number;
  /** Cells whose bodies are generated before a timed sending starts (bounds memory). */
  cellsPerChunk: number;
  /** Protocol version of the batches (default 2). */
  protocol?: ProtocolVersion;
}

/** What a job did. */
export interface IngestStats {
  requests: number;
  /** 20-s measurement rows sent. */
  rows: number;
  /** 10-minute PQ records sent (protocol v2, in a batch with a slot's last window). */
  pqRecords: number;
  /** Records acknowledged as stored: rows and PQ records. */
  accepted: number;
  duplicates: number;
  /** Final responses by status code. */
  statuses: Record<string, number>;
  /** Answers of 500 and above that the cell retried, as the protocol says it must. */
  retries: number;
  /** Wall time of the sending only (ms). */
  sendMs: number;
  /** CPU time of the cells' process during the sending (ms, every thread). */
  sendCpuMs: number;
  /** Time of each request (ms). */
  latencies: number[];
}

/** Attempts per batch: a cell retries answers of 500 and above with the same body. */
const MAX_ATTEMPTS = 5;

async function post(pool: RawHttpPool, request: Uint8Array) {
  const { status, body } = await pool.send(request);
  const answer = JSON.parse(body) as { accepted?: number; duplicates?: number; rejected?: unknown };
  if (status === 207) console.error(`207: ${JSON.stringify(answer.rejected).slice(0, 500)}`);
  return { status, accepted: answer.accepted ?? 0, duplicates: answer.duplicates ?? 0 };
}

/** Generates and sends one job's batches; the sending is timed. */
export async function runJob(job: IngestJob): Promise<IngestStats> {
  const stats: IngestStats = {
    requests: 0,
    rows: 0,
    pqRecords: 0,
    accepted: 0,
    duplicates: 0,
    statuses: {},
    retries: 0,
    sendMs: 0,
    sendCpuMs: 0,
    latencies: [],
  };
  const url = new URL("/ingest/v1/batches", job.baseUrl);
  const pool = new RawHttpPool(url, job.concurrency);
  try {
    await sendChunks(job, url, pool, stats);
  } finally {
    pool.close();
  }
  return stats;
}

async function sendChunks(job: IngestJob, url: URL, pool: RawHttpPool, stats: IngestStats) {
  for (let first = 0; first < job.cells.length; first += job.cellsPerChunk) {
    const requests: Uint8Array[] = [];
    for (const cell of job.cells.slice(first, first + job.cellsPerChunk)) {
      const batch = mergeBatches(
        job.windows.flatMap((w) => generateBatch(cell, w, SEED, job.protocol) ?? []),
      );
      if (!batch) continue;
      stats.rows += batch.measurements.length;
      stats.pqRecords += batch.pq?.length ?? 0;
      const authorization = `Bearer ${cell.credential}`;
      requests.push(postRequest(url, { authorization }, JSON.stringify(batch)));
    }
    const start = performance.now();
    const cpu = process.cpuUsage();
    await mapBounded(requests, job.concurrency, async (request) => {
      const sent = performance.now();
      let answer = await post(pool, request);
      for (let attempt = 1; answer.status >= 500 && attempt < MAX_ATTEMPTS; attempt++) {
        stats.retries++;
        answer = await post(pool, request);
      }
      stats.latencies.push(performance.now() - sent);
      stats.requests++;
      stats.accepted += answer.accepted;
      stats.duplicates += answer.duplicates;
      stats.statuses[answer.status] = (stats.statuses[answer.status] ?? 0) + 1;
    });
    stats.sendMs += performance.now() - start;
    const used = process.cpuUsage(cpu);
    stats.sendCpuMs += (used.user + used.system) / 1000;
  }
}

// As a web worker (the in-process variant; ingest_client_process.ts runs it as a process).
if (typeof self !== "undefined" && "postMessage" in self && !import.meta.main) {
  self.onmessage = async (event: MessageEvent<IngestJob>) => {
    try {
      self.postMessage({ ok: true, stats: await runJob(event.data) });
    } catch (error) {
      self.postMessage({ ok: false, error: String(error) });
    }
  };
}
