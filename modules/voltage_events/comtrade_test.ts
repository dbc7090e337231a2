/**
 * The COMTRADE writer read back by a parser written here from IEEE C37.111-2013's text (clause
 * 7 "Configuration file", clause 8 "Data file"), independent of the writer's code.
 */
import assert from "node:assert/strict";
import { channelMultiplier, comtradeTime, writeComtrade } from "./comtrade.ts";

interface ParsedCfg {
  station: string;
  device: string;
  revYear: number;
  total: number;
  analog: number;
  digital: number;
  channels: {
    index: number;
    id: string;
    ph: string;
    ccbm: string;
    uu: string;
    a: number;
    b: number;
    min: number;
    max: number;
    ps: string;
  }[];
  lf: number;
  rates: { samp: number; endsamp: number }[];
  start: Date;
  trigger: Date;
  ft: string;
  timemult: number;
  timeCode: string;
  localCode: string;
}

/** 7.4.6: dd/mm/yyyy,hh:mm:ss.ssssss */
function parseStamp(line: string): Date {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}),(\d{1,2}):(\d{2}):(\d{2})\.(\d{6})$/.exec(line);
  if (!m) throw new Error(`bad time stamp: ${line}`);
  const [, dd, mm, yyyy, hh, mi, ss, us] = m.map(Number) as number[];
  return new Date(Date.UTC(yyyy!, mm! - 1, dd!, hh!, mi!, ss!, us! / 1000));
}

function parseCfg(text: string): ParsedCfg {
  assert.ok(text.endsWith("\r\n"), "each line ends with CR/LF");
  const lines = text.slice(0, -2).split("\r\n");
  let i = 0;
  const next = () => lines[i++]!.split(",");
  const [station, device, rev] = next();
  const [tt, na, nd] = next();
  assert.match(na!, /^\d+A$/);
  assert.match(nd!, /^\d+D$/);
  const analog = Number.parseInt(na!);
  const channels = [];
  for (let k = 0; k < analog; k++) {
    const f = next();
    assert.equal(f.length, 13, "An,ch_id,ph,ccbm,uu,a,b,skew,min,max,primary,secondary,PS");
    channels.push({
      index: Number(f[0]),
      id: f[1]!,
      ph: f[2]!,
      ccbm: f[3]!,
      uu: f[4]!,
      a: Number(f[5]),
      b: Number(f[6]),
      min: Number(f[8]),
      max: Number(f[9]),
      ps: f[12]!,
    });
  }
  const lf = Number(next()[0]);
  const nrates = Number(next()[0]);
  const rates = [];
  for (let k = 0; k < nrates; k++) {
    const [samp, endsamp] = next().map(Number);
    rates.push({ samp: samp!, endsamp: endsamp! });
  }
  const start = parseStamp(lines[i++]!);
  const trigger = parseStamp(lines[i++]!);
  const ft = lines[i++]!;
  const timemult = Number(lines[i++]);
  const [timeCode, localCode] = next();
  const [tmq, leap] = next();
  assert.match(tmq!, /^[0-9A-F]$/);
  assert.match(leap!, /^[0-3]$/);
  assert.equal(i, lines.length, "no lines after the time quality line");
  return {
    station: station!,
    device: device!,
    revYear: Number(rev),
    total: Number(tt),
    analog,
    digital: Number.parseInt(nd!),
    channels,
    lf,
    rates,
    start,
    trigger,
    ft,
    timemult,
    timeCode: timeCode!,
    localCode: localCode!,
  };
}

/** Clause 8: samples as [n, timestamp, ...analog counts]. */
function parseDat(cfg: ParsedCfg, dat: Uint8Array): number[][] {
  if (cfg.ft === "ASCII") {
    const text = new TextDecoder().decode(dat);
    return text.trim().split("\r\n").map((l) => l.split(",").map(Number));
  }
  assert.equal(cfg.ft, "BINARY");
  const size = 4 + 4 + 2 * cfg.analog + 2 * Math.ceil(cfg.digital / 16);
  assert.equal(dat.length % size, 0);
  const view = new DataView(dat.buffer, dat.byteOffset, dat.byteLength);
  const out: number[][] = [];
  for (let at = 0; at < dat.length; at += size) {
    const row = [view.getUint32(at, true), view.getUint32(at + 4, true)];
    for (let k = 0; k < cfg.analog; k++) row.push(view.getInt16(at + 8 + 2 * k, true));
    out.push(row);
  }
  return out;
}

const recording = {
  station: "TS Dorf, Feeder 1",
  device: "CGW20260001",
  frequency: 50,
  firstSampleMs: Date.parse("2026-11-22T08:59:41.100Z"),
  triggerMs: Date.parse("2026-11-22T08:59:41.120Z"),
  intervalMs: 10,
  channels: [
    {
      name: "UL1 RMS",
      phase: "L1",
      component: "TS Dorf",
      unit: "V",
      values: [229.8, 143.3, 150.1, 228.9],
    },
    {
      name: "UL2 RMS",
      phase: "L2",
      component: "TS Dorf",
      unit: "V",
      values: [230.4, 200, 201.7, 230.1],
    },
    { name: "UL3 RMS", phase: "L3", component: "TS Dorf", unit: "V", values: [0, 0, 0, 0] },
  ],
};

for (const format of ["ASCII", "BINARY"] as const) {
  Deno.test(`writeComtrade() ${format}: an independent parser reads back every value`, () => {
    const { cfg, dat } = writeComtrade(recording, format);
    const parsed = parseCfg(cfg);
    assert.equal(parsed.station, "TS Dorf  Feeder 1");
    assert.equal(parsed.device, "CGW20260001");
    assert.equal(parsed.revYear, 2013);
    assert.equal(parsed.total, 3);
    assert.equal(parsed.digital, 0);
    assert.deepEqual(parsed.channels.map((c) => [c.index, c.id, c.ph, c.uu, c.ps]), [
      [1, "UL1 RMS", "L1", "V", "P"],
      [2, "UL2 RMS", "L2", "V", "P"],
      [3, "UL3 RMS", "L3", "V", "P"],
    ]);
    assert.equal(parsed.lf, 50);
    assert.deepEqual(parsed.rates, [{ samp: 100, endsamp: 4 }]);
    assert.equal(parsed.start.toISOString(), "2026-11-22T08:59:41.100Z");
    assert.equal(parsed.trigger.toISOString(), "2026-11-22T08:59:41.120Z");
    assert.equal(parsed.ft, format);
    assert.equal(parsed.timemult, 1);
    assert.deepEqual([parsed.timeCode, parsed.localCode], ["+0", "+0"]);
    const rows = parseDat(parsed, dat);
    assert.equal(rows.length, 4);
    rows.forEach((row, n) => {
      assert.equal(row[0], n + 1, "sample numbers count from 1");
      assert.equal(row[1]! * parsed.timemult, n * 10_000, "time stamps in µs");
      parsed.channels.forEach((c, k) => {
        const x = row[2 + k]!;
        assert.ok(x >= c.min && x <= c.max, "counts within min..max");
        const value = c.a * x + c.b;
        const expected = recording.channels[k]!.values[n]!;
        assert.ok(Math.abs(value - expected) <= c.a / 2 + 1e-9, `${value} vs ${expected}`);
      });
    });
  });
}

Deno.test("channelMultiplier() fits the peak into 32,000 counts on 3 significant digits", () => {
  assert.equal(channelMultiplier([0, 0]), 1);
  const a = channelMultiplier([230.4, -460.1]);
  assert.ok(460.1 / a <= 32_000 && 460.1 / a > 31_000);
  assert.equal(String(a).replace(/^0\.0*/, "").length <= 3, true);
});

Deno.test("comtradeTime() writes UTC with microseconds", () => {
  assert.equal(comtradeTime(Date.parse("2026-01-02T03:04:05.678Z")), "02/01/2026,03:04:05.678000");
});
