/**
 * The SCADA connector's spontaneous path at the size: 5,000 nodes x 12 points (U per
 * phase, I per phase of three feeders) to 2 masters over loopback TCP, standard k=12 and w=8.
 * Each tick gives every series a new 20-s value, then times the point table's scan, the
 * encoding into M_ME_TF_1 ASDUs and the delivery until both masters received every value (they
 * acknowledge like a real master: an S-frame after w I-frames).
 *
 *   npx deno run -A scripts/bench/scada.ts [--nodes=5000] [--ticks=5]
 */
import net from "node:net";
import {
  COT,
  decodeApci,
  monitoringAsdus,
  sFrame,
  splitFrames,
  TYPE,
  U,
  uFrame,
} from "../../modules/scada/iec104_codec.ts";
import { Iec104Session } from "../../modules/scada/iec104_session.ts";
import { PointTable, type SeriesSource } from "../../modules/scada/point_table.ts";
import type { StoredPoint } from "../../modules/scada/points.ts";

const arg = (name: string, fallback: number) =>
  Number(Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const NODES = arg("nodes", 5000);
const TICKS = arg("ticks", 5);
const MASTERS = 2;

// Points and series: node n has cell c<n>, feeders f<n>-1..3 in slots 1..3.
const points: StoredPoint[] = [];
const ids = new Map<string, number>();
const grid = { cellOf: new Map(), slotOf: new Map(), lvSlotsOf: new Map() } as {
  cellOf: Map<string, string>;
  slotOf: Map<string, number>;
  lvSlotsOf: Map<string, number[]>;
};
let ioa = 1;
for (let n = 0; n < NODES; n++) {
  const node = `n${n}`;
  grid.cellOf.set(node, `c${n}`);
  grid.lvSlotsOf.set(node, [1, 2, 3]);
  for (let slot = 1; slot <= 3; slot++) {
    grid.slotOf.set(`f${n}-${slot}`, slot);
    for (let phase = 0; phase < 3; phase++) ids.set(`c${n}|${slot}|${phase}`, ids.size);
  }
  for (let phase = 1; phase <= 3; phase++) {
    points.push({
      ioa: ioa++,
      node_id: node,
      feeder_id: `f${n}-1`,
      quantity: "U",
      phase,
      activated: true,
    });
  }
  for (let slot = 1; slot <= 3; slot++) {
    for (let phase = 1; phase <= 3; phase++) {
      points.push({
        ioa: ioa++ % 65536 || 1,
        node_id: node,
        feeder_id: `f${n}-${slot}`,
        quantity: "I",
        phase,
        activated: true,
      });
    }
  }
}
const ts = new Float64Array(ids.size).fill(-Infinity);
const values = new Float32Array(ids.size);
const source: SeriesSource = {
  latest: {
    ts: (id) => ts[id]!,
    u: (id) => values[id]!,
    i: (id) => values[id]! / 5,
    p: (id) => values[id]! / 50,
    q: (id) => values[id]! / 100,
    f: () => 50,
  },
  seriesId: (cell, slot, phase) => ids.get(`${cell}|${slot}|${phase}`),
};

/** A master on loopback that counts the objects it receives and acknowledges after w. */
function master(port: number): Promise<{ received: () => number; socket: net.Socket }> {
  return new Promise((resolve) => {
    let objects = 0;
    let vr = 0;
    let unacked = 0;
    let input = new Uint8Array(0);
    const socket = net.connect({ port, host: "127.0.0.1" }, () => {
      socket.write(uFrame(U.STARTDT_ACT));
      resolve({ received: () => objects, socket });
    });
    socket.setNoDelay(true);
    socket.on("data", (chunk: Uint8Array) => {
      const buffer = new Uint8Array(input.length + chunk.length);
      buffer.set(input);
      buffer.set(chunk, input.length);
      const { frames, rest } = splitFrames(buffer);
      input = rest.slice();
      for (const frame of frames) {
        const apci = decodeApci(frame);
        if (apci.kind !== "I") continue;
        vr = (apci.ns + 1) % 32768;
        if (apci.asdu[0] === TYPE.M_ME_TF_1) objects += apci.asdu[1]! & 0x7f;
        if (++unacked >= 8) {
          unacked = 0;
          socket.write(sFrame(vr));
        }
      }
    });
  });
}

const sessions: Iec104Session[] = [];
const sockets: net.Socket[] = [];
const server = net.createServer({ noDelay: true }, (socket) => {
  const session = new Iec104Session(
    { t1: 15, t2: 10, t3: 20, k: 12, w: 8 },
    {
      send: (bytes) => socket.write(bytes),
      close: () => socket.destroy(),
      asdu: () => {},
    },
    Date.now,
    1_000_000,
  );
  socket.on("data", (chunk: Uint8Array) => {
    socket.cork(); // as the connector does
    session.receive(new Uint8Array(chunk));
    socket.uncork();
  });
  sessions.push(session);
  sockets.push(socket);
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const port = (server.address() as net.AddressInfo).port;
const masters = await Promise.all(Array.from({ length: MASTERS }, () => master(port)));
while (sessions.filter((s) => s.started).length < MASTERS) {
  await new Promise((r) => setTimeout(r, 10));
}
const timer = setInterval(() => sessions.forEach((s) => s.tick()), 100);

const table = new PointTable(points, grid);
const floats = table.size;
console.log(`${NODES} nodes, ${floats} points, ${MASTERS} masters`);
const results: number[] = [];
let window = Date.now() - (Date.now() % 20_000) - 20_000 * TICKS;
for (let tick = 0; tick < TICKS; tick++) {
  window += 20_000;
  for (let id = 0; id < ts.length; id++) {
    ts[id] = window;
    values[id] = 230 + Math.random();
  }
  const before = masters.map((m) => m.received());
  const started = performance.now();
  const changed = table.newValues(source, Date.now());
  const scanned = performance.now();
  const asdus = monitoringAsdus(TYPE.M_ME_TF_1, COT.SPONTANEOUS, 1, changed);
  const encoded = performance.now();
  for (const [k, session] of sessions.entries()) {
    sockets[k]!.cork(); // as the connector does
    for (const asdu of asdus) session.queue(asdu);
    sockets[k]!.uncork();
  }
  while (masters.some((m, k) => m.received() - before[k]! < changed.length)) {
    await new Promise((r) => setTimeout(r, 1));
  }
  const done = performance.now();
  results.push(done - started);
  console.log(
    `tick ${tick + 1}: ${changed.length} values, ${asdus.length} ASDUs per master; scan ${
      (scanned - started).toFixed(1)
    } ms, encode ${(encoded - scanned).toFixed(1)} ms, delivered to both in ${
      (done - started).toFixed(0)
    } ms`,
  );
}
console.log(`worst tick: ${Math.max(...results).toFixed(0)} ms (target: within 1,000 ms)`);
clearInterval(timer);
for (const m of masters) m.socket.destroy();
server.close();
