import assert from "node:assert/strict";
import { COT, decodeAsdu, QUALITY, TYPE } from "./iec104_codec.ts";
import { clockSync, interrogation, readMonitoring, testCommand } from "./iec104_master.ts";
import { answer, type Snapshot } from "./iec104_station.ts";

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join(" ");
const snapshot = (): Snapshot => ({
  floats: [{ ioa: 1, value: 231, quality: 0 }, {
    ioa: 2,
    value: 0,
    quality: QUALITY.IV | QUALITY.NT,
  }],
  singles: [{ ioa: 3, value: 1, quality: 0 }],
});
const replies = (a: ReturnType<typeof answer>) => {
  assert.equal(a.kind, "reply");
  return a.kind === "reply" ? a.asdus : [];
};

Deno.test("general interrogation: ACT_CON, untimed data with cause 20, ACT_TERM", () => {
  const out = replies(answer(interrogation(7, COT.ACTIVATION, 20, 3), 7, snapshot));
  assert.equal(hex(out[0]!), "64 01 07 03 07 00 00 00 00 14");
  const floats = decodeAsdu(out[1]!);
  assert.deepEqual([floats.type, floats.cause, floats.originator], [TYPE.M_ME_NC_1, 20, 3]);
  assert.deepEqual(readMonitoring(floats).map((v) => [v.ioa, v.value, v.quality]), [
    [1, 231, 0],
    [2, 0, 0xc0],
  ]);
  const singles = decodeAsdu(out[2]!);
  assert.deepEqual([singles.type, singles.cause], [TYPE.M_SP_NA_1, 20]);
  assert.equal(hex(out[3]!), "64 01 0a 03 07 00 00 00 00 14");
});

Deno.test("broadcast interrogation is confirmed with the station's own address", () => {
  const out = replies(answer(interrogation(0xffff), 7, snapshot));
  assert.equal(hex(out[0]!), "64 01 07 00 07 00 00 00 00 14");
});

Deno.test("unknown type -> 44, unknown common address -> 46, unknown cause -> 45", () => {
  const single = Uint8Array.of(45, 1, 6, 0, 7, 0, 1, 0, 0, 1); // C_SC_NA_1
  assert.equal(hex(replies(answer(single, 7, snapshot))[0]!), "2d 01 6c 00 07 00 01 00 00 01");
  assert.equal(
    hex(replies(answer(interrogation(8), 7, snapshot))[0]!),
    "64 01 6e 00 08 00 00 00 00 14",
  );
  assert.equal(
    hex(replies(answer(interrogation(7, COT.SPONTANEOUS), 7, snapshot))[0]!),
    "64 01 6d 00 07 00 00 00 00 14",
  );
});

Deno.test("clock synchronisation and test command are confirmed (mirrored, cause 7)", () => {
  const at = Date.UTC(2026, 10, 25, 18, 47, 58, 123);
  const sync = answer(clockSync(7, at), 7, snapshot);
  assert.equal(sync.kind === "reply" && sync.clock, at);
  assert.equal(hex(replies(sync)[0]!), "67 01 07 00 07 00 00 00 00 0b e3 2f 12 79 0b 1a");
  const test = replies(answer(testCommand(7, 0x55aa, at), 7, snapshot));
  assert.equal(hex(test[0]!), "6b 01 07 00 07 00 00 00 00 aa 55 0b e3 2f 12 79 0b 1a");
});

Deno.test("truncated or oversized command ASDUs close the connection", () => {
  assert.equal(answer(Uint8Array.of(100, 1, 6), 7, snapshot).kind, "close");
  assert.equal(answer(interrogation(7).subarray(0, 9), 7, snapshot).kind, "close");
  const long = new Uint8Array([...interrogation(7), 0]);
  assert.equal(answer(long, 7, snapshot).kind, "close");
});
