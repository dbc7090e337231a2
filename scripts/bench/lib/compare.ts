/** Product against PostgreSQL from the keyed results of one run. Pure. */
import { atLeast, type Result } from "./report.ts";

/** Key of a result -> its value and workload rows. */
function lookup(results: readonly Result[]) {
  return (key: string) => results.find((r) => r.key === key);
}

/**
 * Ratios above 1 favour the product: ingest rates product / PostgreSQL (target >= 5 x), and
 * for the 10-minute close and the latest values PostgreSQL's time over the product's, per row
 * aggregated or per node (the two workloads may differ in size). Missing inputs: no row.
 */
export function comparisons(results: readonly Result[]): Result[] {
  const get = lookup(results);
  const out: Result[] = [];
  const ingest = atLeast(5, ">= 5 x");
  for (
    const [product, peer, label] of [
      ["ingest.single", "pg.single", "1 window/batch"],
      ["ingest.multi", "pg.multi", "30 windows/batch"],
    ] as const
  ) {
    const a = get(product);
    const b = get(peer);
    if (a && b) {
      out.push({
        name: `Product / PostgreSQL, ingest rows/s, ${label}`,
        value: a.value / b.value,
        unit: "x",
        target: ingest,
      });
    }
  }
  for (
    const [product, peer, label] of [
      ["aggregation.close", "pg.aggregate", "10-minute close (running sums), time per row"],
      ["aggregation.sql", "pg.aggregate", "10-minute GROUP BY vs ours in SQL, time per row"],
      ["status.p50", "pg.latest", "grid status eval. vs DISTINCT ON, time per node"],
    ] as const
  ) {
    const a = get(product);
    const b = get(peer);
    if (a?.rows && b?.rows) {
      out.push({
        name: `PostgreSQL / product, ${label}`,
        value: (b.value / b.rows) / (a.value / a.rows),
        unit: "x",
      });
    }
  }
  return out;
}
