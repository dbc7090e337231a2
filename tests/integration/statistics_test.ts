/**
 * Visual statistics on real DuckDB files with simulator data: two demo cells' last 50 hours go
 * through the ingestion core and the aggregator, then /vsm answers series, histograms and
 * comparisons from the level each period calls for, with gaps as nulls and the period rules,
 * limits and tenant isolation of the contract.
 */
import assert from "node:assert/strict";
import { SLOT_GRACE_MS, SLOT_MS } from "../../core/mod.ts";
import { backfill, DEMO_USERS, demoSimCells, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import type { StationGroupDto } from "../../modules/grid/mod.ts";
import { createLogger } from "../../kernel/mod.ts";
import type {
  CompareDto,
  HistogramDto,
  ParametersDto,
  SeriesDto,
} from "../../modules/statistics/mod.ts";
import { databaseKinds, startTestPlatform, type TestPlatform } from "../helpers/platform.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/** The station (data throughout) and the cabinet that was offline from 30 h to 24 h ago. */
const STATION = "TS Seeblick";
const OFFLINE_YESTERDAY = "CAB Gleisfeld";

for (const kind of databaseKinds()) {
  Deno.test({
    name: `visual statistics from simulator data on DuckDB (${kind})`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const platform = await startTestPlatform(kind);
      try {
        await run(platform);
      } finally {
        await platform.close();
      }
    },
  });
}

async function run(platform: TestPlatform): Promise<void> {
  const { measurements, aggregator, analytics } = platform.services;
  const deps = {
    ...platform.services,
    store: measurements,
    logger: createLogger("error"),
    baseUrl: "http://unused",
    backfillDays: 0,
    rawLifetimeDays: 30,
  };
  const token = (await platform.login(DEMO_USERS[0].email, DEMO_USERS[0].password)).access_token;
  const structure =
    await (await platform.request("/gsm/grid-structure/hv-mv-station-groups", { token }))
      .json() as StationGroupDto[];
  const nodes = new Map(
    structure.flatMap((g) => g.mv_feeder_groups.flatMap((m) => m.lv_groups.flatMap((l) => l.nodes)))
      .map((n) => [n.name, n]),
  );
  const station = nodes.get(STATION)!;
  const cabinet = nodes.get(OFFLINE_YESTERDAY)!;
  // Feeders with data first, then the others.
  const allFeeders = [station, cabinet, ...nodes.values()].flatMap((n) =>
    n.feeders.map((f) => f.id)
  )
    .filter((id, k, ids) => ids.indexOf(id) === k);

  const now = Date.now();
  const cells = await demoSimCells(deps, now);
  const installed = await platform.services.cells.listFor(
    (await platform.services.customers.getByConnection("demo-ew"))!.key,
    "INSTALLED",
  );
  const cellOf = (nodeId: string) => installed.find((c) => c.node_id === nodeId)!.id;
  const ours = cells.filter((c) =>
    c.cellId === cellOf(station.id) || c.cellId === cellOf(cabinet.id)
  );
  assert.equal(ours.length, 2);
  const to = now - (now % 20_000);
  await backfill(deps, ours, to - 34 * HOUR, to);
  await aggregator.flush(to + SLOT_MS + SLOT_GRACE_MS);

  const get = async <T>(path: string, as = token) => {
    const res = await platform.request(path, { token: as });
    const body = await res.json();
    return {
      status: res.status,
      body: body as T & { key?: string; code?: number; params?: unknown },
    };
  };
  const period = (from: number, until: number) => `from=${iso(from)}&to=${iso(until)}`;

  // GET /vsm/parameters: every quantity with its unit, the limits the form mirrors.
  const parameters = await get<ParametersDto>("/vsm/parameters");
  assert.equal(parameters.status, 200);
  assert.deepEqual(parameters.body.parameters.map((p) => p.key), [
    "u",
    "i",
    "p",
    "q",
    "pf",
    "thd_u",
    "thd_i",
    "f",
    "unbalance",
    "pst",
    "plt",
  ]);
  assert.deepEqual(parameters.body.parameters.find((p) => p.key === "p"), {
    key: "p",
    unit: "kW",
    per_phase: true,
  });
  assert.deepEqual(parameters.body.limits, {
    max_charts: 6,
    max_compare_feeders: 10,
    min_compare_feeders: 2,
    max_period_days: 366,
    min_period_minutes: 10,
  });
  const operator = (await platform.login(DEMO_USERS[4].email, DEMO_USERS[4].password))
    .access_token;
  assert.equal((await get("/vsm/parameters", operator)).status, 403, "no visual statistics role");

  // One hour: the 20-s values, per phase, the neutral for the current, 2 decimals.
  const transformer = station.feeders[0]!;
  const hour = await get<SeriesDto>(
    `/vsm/series?feeders=${transformer.id}&parameters=u,i&${period(to - 3 * HOUR, to - 2 * HOUR)}`,
  );
  assert.equal(hour.status, 200, JSON.stringify(hour.body));
  assert.equal(hour.body.resolution, "20s");
  assert.equal(hour.body.step_s, 20);
  assert.equal(hour.body.times.length, 180);
  assert.equal(hour.body.times[1]! - hour.body.times[0]!, 20_000);
  assert.equal(hour.body.charts.length, 2);
  const [uChart, iChart] = hour.body.charts;
  assert.equal(uChart!.feeder_name, transformer.name);
  assert.equal(uChart!.node_name, STATION);
  assert.equal(uChart!.unit, "V");
  assert.deepEqual(uChart!.series.map((s) => [s.phase, s.stat]), [
    ["L1", "mean"],
    ["L2", "mean"],
    ["L3", "mean"],
  ]);
  assert.deepEqual(iChart!.series.map((s) => s.phase), ["L1", "L2", "L3", "N"]);
  const u1 = uChart!.series[0]!.values;
  assert.equal(u1.length, 180);
  assert.ok(u1.every((v) => v !== null && v > 200 && v < 260), "a full hour of voltages");
  assert.ok(u1.every((v) => Math.round(v! * 100) / 100 === v), "2 decimals");

  // Pst and unbalance are 10-minute PQ records (protocol v2): the 20-s level shows each value
  // for its 10 minutes.
  const pqHour = await get<SeriesDto>(
    `/vsm/series?feeders=${transformer.id}&parameters=pst,unbalance&${
      period(to - 3 * HOUR, to - 2 * HOUR)
    }`,
  );
  assert.equal(pqHour.status, 200, JSON.stringify(pqHour.body));
  assert.equal(pqHour.body.resolution, "20s");
  const [pstChart, unbalanceChart] = pqHour.body.charts;
  assert.deepEqual(pstChart!.series.map((s) => s.phase), ["L1", "L2", "L3"]);
  assert.deepEqual(unbalanceChart!.series.map((s) => s.phase), [null], "one curve per feeder");
  const pst1 = pstChart!.series[0]!.values;
  assert.ok(pst1.every((v) => v !== null && v > 0 && v < 5), "an hour of Pst");
  pqHour.body.times.forEach((t, k) => {
    const first = pqHour.body.times.findIndex((u) => u - (u % SLOT_MS) === t - (t % SLOT_MS));
    assert.equal(pst1[k], pst1[first], "one value per 10 minutes");
  });

  // Two days: 10-minute aggregates with min and max; the cabinet's 6-hour outage stays a gap.
  const twoDays = await get<SeriesDto>(
    `/vsm/series?feeders=${cabinet.feeders[0]!.id}&parameters=u&${period(to - 2 * DAY, to)}`,
  );
  assert.equal(twoDays.status, 200, JSON.stringify(twoDays.body));
  assert.equal(twoDays.body.resolution, "10min");
  assert.deepEqual(twoDays.body.charts[0]!.series.slice(0, 3).map((s) => s.stat), [
    "mean",
    "min",
    "max",
  ]);
  const l1 = twoDays.body.charts[0]!.series[0]!.values;
  const times = twoDays.body.times;
  assert.equal(times.length, l1.length);
  const gapFrom = now - 30 * HOUR, gapTo = now - 24 * HOUR;
  const inside = times.flatMap((t, k) => t >= gapFrom + SLOT_MS && t + SLOT_MS <= gapTo ? [k] : []);
  const around = times.flatMap((t, k) =>
    (t >= to - 34 * HOUR + SLOT_MS && t + SLOT_MS <= gapFrom) ||
      (t >= gapTo + SLOT_MS && t + SLOT_MS <= to)
      ? [k]
      : []
  );
  assert.ok(inside.length >= 30, `slots inside the outage: ${inside.length}`);
  assert.ok(inside.every((k) => l1[k] === null), "the outage is a gap");
  assert.ok(around.every((k) => l1[k] !== null), "data on both sides of the outage");
  // The answer is the stored 10-minute mean, rounded.
  const seriesL1 = measurements.seriesId(cellOf(cabinet.id), cabinet.feeders[0]!.slot, 0)!;
  const k = around[around.length - 1]!;
  const stored = (await analytics.runAndReadAll(
    `SELECT u_rms FROM agg_10min WHERE series_id = ${seriesL1}
     AND slot = make_timestamp(${times[k]! * 1000})`,
  )).getRows()[0]![0] as number;
  assert.equal(l1[k], Math.round(stored * 100) / 100);

  // The cabinet's PQ records: none for the slots it was offline, the stored value otherwise.
  const pqDays = await get<SeriesDto>(
    `/vsm/series?feeders=${cabinet.feeders[0]!.id}&parameters=pst&${period(to - 2 * DAY, to)}`,
  );
  assert.equal(pqDays.body.resolution, "10min");
  const pstL1 = pqDays.body.charts[0]!.series[0]!.values;
  assert.ok(inside.every((k) => pstL1[k] === null), "no PQ record while offline");
  assert.ok(around.every((k) => pstL1[k] !== null), "a PQ record for every other slot");
  const storedPst = (await analytics.runAndReadAll(
    `SELECT pst FROM pq_10min WHERE series_id = ${seriesL1}
     AND slot = make_timestamp(${times[k]! * 1000})`,
  )).getRows()[0]![0] as number;
  assert.equal(pstL1[k], Math.round(storedPst * 100) / 100);
  const pqCounts = (await analytics.runAndReadAll(
    `SELECT (SELECT count(*) FROM pq_10min WHERE series_id = ${seriesL1}),
            (SELECT sum(n) FROM pq_1h WHERE series_id = ${seriesL1}),
            (SELECT sum(n) FROM pq_1d WHERE series_id = ${seriesL1})`,
  )).getRows()[0]!.map(Number);
  assert.ok(pqCounts[0]! > 100);
  assert.deepEqual(pqCounts, [pqCounts[0], pqCounts[0], pqCounts[0]], "pq_1h and pq_1d");

  // The hourly and daily rollups hold every 20-s value of the 10-minute aggregates.
  const counts = (await analytics.runAndReadAll(
    `SELECT (SELECT sum(n) FROM agg_10min WHERE series_id = ${seriesL1}),
            (SELECT sum(n) FROM agg_1h WHERE series_id = ${seriesL1}),
            (SELECT sum(n) FROM agg_1d WHERE series_id = ${seriesL1})`,
  )).getRows()[0]!.map(Number);
  assert.ok(counts[0]! > 0);
  assert.deepEqual(counts, [counts[0], counts[0], counts[0]], "agg_1h and agg_1d are filled");

  // 30 days: hourly; a year: daily, with the last three days filled.
  const lines = station.feeders.slice(1, 3).map((f) => f.id).join(",");
  const month = await get<CompareDto>(
    `/vsm/compare?feeders=${lines}&parameter=u&${period(to - 30 * DAY, to)}`,
  );
  assert.equal(month.status, 200, JSON.stringify(month.body));
  assert.equal(month.body.resolution, "1h");
  assert.equal(month.body.times.length, 30 * 24 + (to % HOUR ? 1 : 0));
  const year = await get<CompareDto>(
    `/vsm/compare?feeders=${lines}&parameter=u&${period(to - 365 * DAY, to)}`,
  );
  assert.equal(year.status, 200, JSON.stringify(year.body));
  assert.equal(year.body.resolution, "1d");
  assert.equal(year.body.step_s, 86_400);
  assert.equal(year.body.feeders.length, 2);
  const daily = year.body.feeders[0]!.values;
  assert.equal(daily.length, year.body.times.length);
  assert.ok(daily.slice(0, -4).every((v) => v === null), "no data before the backfill");
  assert.ok(daily.slice(-2).every((v) => v !== null && v > 200 && v < 260));
  const pltMonth = await get<CompareDto>(
    `/vsm/compare?feeders=${lines}&parameter=plt&${period(to - 30 * DAY, to)}`,
  );
  assert.equal(pltMonth.body.resolution, "1h");
  // A slot's PQ record comes with the next slot (protocol v2, up to 10 minutes later) and is
  // written with the next fold: the last two hours may lack it, the 20 hours before them have it.
  assert.ok(pltMonth.body.feeders[0]!.values.slice(-22, -2).every((v) => v !== null && v > 0));
  const summary = year.body.feeders[0]!.summary;
  assert.ok(summary.min! <= summary.mean! && summary.mean! <= summary.max!);

  // Phase combination: the power of a feeder is the sum of its phases, the voltage their mean.
  const day = period(to - 20 * HOUR, to - 10 * HOUR);
  const perPhase = await get<SeriesDto>(
    `/vsm/series?feeders=${transformer.id}&parameters=p,u&${day}`,
  );
  const both = transformer.id + "," + station.feeders[1]!.id;
  const pSum = await get<CompareDto>(`/vsm/compare?feeders=${both}&parameter=p&${day}`);
  const uMean = await get<CompareDto>(`/vsm/compare?feeders=${both}&parameter=u&${day}`);
  const uL2 = await get<CompareDto>(
    `/vsm/compare?feeders=${both}&parameter=u&phase=L2&${day}`,
  );
  const phaseValues = (parameter: string) =>
    perPhase.body.charts.find((c) => c.parameter === parameter)!.series
      .filter((s) => s.stat === "mean").map((s) => s.values);
  for (let s = 0; s < pSum.body.times.length; s += 7) {
    const p = phaseValues("p").map((v) => v[s]!);
    const u = phaseValues("u").map((v) => v[s]!);
    assert.ok(Math.abs(pSum.body.feeders[0]!.values[s]! - (p[0]! + p[1]! + p[2]!)) <= 0.03);
    assert.ok(Math.abs(uMean.body.feeders[0]!.values[s]! - (u[0]! + u[1]! + u[2]!) / 3) <= 0.02);
    assert.equal(uL2.body.feeders[0]!.values[s], u[1]);
  }

  // Histogram: 10-minute means of a day, 20-s values of an hour.
  const histogram = await get<HistogramDto>(
    `/vsm/histogram?feeder=${transformer.id}&parameter=u&bins=20&${period(to - DAY, to)}`,
  );
  assert.equal(histogram.status, 200, JSON.stringify(histogram.body));
  assert.equal(histogram.body.resolution, "10min");
  assert.equal(histogram.body.bins.length, 20);
  assert.equal(histogram.body.count, histogram.body.bins.reduce((n, b) => n + b.count, 0));
  assert.ok(histogram.body.count >= 3 * 143, `three phases of a day: ${histogram.body.count}`);
  assert.ok(histogram.body.p05 <= histogram.body.mean && histogram.body.mean <= histogram.body.p95);
  const l3 = await get<HistogramDto>(
    `/vsm/histogram?feeder=${transformer.id}&parameter=u&phase=L3&${
      period(to - 2 * HOUR, to - HOUR)
    }`,
  );
  assert.equal(l3.body.resolution, "20s");
  assert.equal(l3.body.count, 180);
  assert.equal(l3.body.bins.length, 40);

  // Tenant isolation: another customer's feeder answers like an unknown one.
  const other = (await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password)).access_token;
  const oneDay = period(to - DAY, to);
  const foreign = await get(`/vsm/series?feeders=${transformer.id}&parameters=u&${oneDay}`, other);
  const unknown = await get(`/vsm/series?feeders=${crypto.randomUUID()}&parameters=u&${oneDay}`);
  assert.equal(foreign.status, 404);
  assert.deepEqual(foreign.body, unknown.body);
  assert.equal(unknown.body.key, "grid.elementNotFound");
  assert.equal(
    (await get(`/vsm/histogram?feeder=${transformer.id}&parameter=u&${oneDay}`, other)).status,
    404,
  );
  assert.equal(
    (await get(`/vsm/compare?feeders=${both}&parameter=u&${oneDay}`, other)).status,
    404,
  );
  // An LV feeder is no MV feeder.
  const mv = await get(`/vsm/series?feeders=${transformer.id}&parameters=u&level=MV&${oneDay}`);
  assert.equal(mv.status, 404);

  // Period rules: 401, 402, 403.
  const codeOf = async (query: string) => {
    const res = await get(`/vsm/series?feeders=${transformer.id}&parameters=u&${query}`);
    return [res.status, res.body.code];
  };
  assert.deepEqual(await codeOf(period(to, to - HOUR)), [400, 401]);
  assert.deepEqual(await codeOf(period(to, to)), [400, 401]);
  assert.deepEqual(await codeOf(`from=yesterday&to=${iso(to)}`), [400, 401]);
  assert.deepEqual(await codeOf(period(to - 367 * DAY, to)), [400, 402]);
  assert.deepEqual(await codeOf(period(to - 5 * 60_000, to)), [400, 403]);

  // Limits: charts (feeders x parameters) and compared feeders.
  const tooMany = await get(
    `/vsm/series?feeders=${both}&parameters=u,i,p,q&${oneDay}`,
  );
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.body.key, "statistics.tooManySelections");
  assert.deepEqual(tooMany.body.params, { limit: 6 });
  for (const ids of [[transformer.id], allFeeders.slice(0, 11)]) {
    assert.equal(ids.length === 1 || ids.length === 11, true);
    const res = await get(`/vsm/compare?feeders=${ids.join(",")}&parameter=u&${oneDay}`);
    assert.equal(res.status, 400);
    assert.equal(res.body.key, "statistics.compareFeeders");
    assert.deepEqual(res.body.params, { min: 2, max: 10 });
  }
  const ten = await get<CompareDto>(
    `/vsm/compare?feeders=${allFeeders.slice(0, 10).join(",")}&parameter=i&${oneDay}`,
  );
  assert.equal(ten.status, 200, JSON.stringify(ten.body));
  assert.equal(ten.body.feeders.length, 10);

  // No data at all in the period: 410.
  const empty = await get(
    `/vsm/series?feeders=${transformer.id}&parameters=u&${period(to - 300 * DAY, to - 299 * DAY)}`,
  );
  assert.deepEqual([empty.status, empty.body.code], [404, 410]);
  const silent = await get(
    `/vsm/compare?feeders=${nodes.get("CAB Waldrand")!.feeders.map((f) => f.id).join(",")}` +
      `&parameter=u&${oneDay}`,
  );
  assert.deepEqual([silent.status, silent.body.code], [404, 410], "cells without stored data");

  // Bad input: a validation error, never a server error.
  for (
    const query of [
      `/vsm/series?feeders=${transformer.id}&parameters=volts&${oneDay}`,
      `/vsm/series?parameters=u&${oneDay}`,
      `/vsm/series?feeders=${transformer.id}&parameters=u&${oneDay}&resolution=5min`,
      `/vsm/series?feeders=${transformer.id}&parameters=u&${oneDay}&__proto__=1`,
      `/vsm/histogram?feeder=${transformer.id}&parameter=u&bins=0&${oneDay}`,
      `/vsm/histogram?feeder=${transformer.id}&parameter=u&bins=101&${oneDay}`,
      `/vsm/histogram?feeder=${transformer.id}&parameter=u&phase=N&${oneDay}`,
      `/vsm/compare?feeders=${both}&parameter=u&phase=L4&${oneDay}`,
      `/vsm/series?feeders=${"x".repeat(3000)}&parameters=u&${oneDay}`,
    ]
  ) {
    const res = await get(query);
    assert.equal(res.status, 400, query);
    assert.equal(res.body.key, "common.validation", query);
  }
  const tooFine = await get(
    `/vsm/series?feeders=${transformer.id}&parameters=u&resolution=20s&${
      period(to - 30 * DAY, to)
    }`,
  );
  assert.deepEqual([tooFine.status, tooFine.body.key], [400, "statistics.tooManyPoints"]);
}
