/**
 * The cells of the HTTP ingest benchmark as a process of their own: reads one job (JSON) per
 * line on stdin, answers one line of stats per job on stdout. A separate process keeps the
 * cells' memory (pre-generated bodies, the fetch client) out of the platform's peak RSS, as
 * remote cells would be.
 */
import { type IngestJob, runJob } from "./ingest_client.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();
let buffered = "";
for await (const chunk of Deno.stdin.readable) {
  buffered += decoder.decode(chunk, { stream: true });
  let newline: number;
  while ((newline = buffered.indexOf("\n")) >= 0) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    let answer: unknown;
    try {
      answer = { ok: true, stats: await runJob(JSON.parse(line) as IngestJob) };
    } catch (error) {
      answer = { ok: false, error: String(error) };
    }
    await Deno.stdout.write(encoder.encode(`${JSON.stringify(answer)}\n`));
  }
}
