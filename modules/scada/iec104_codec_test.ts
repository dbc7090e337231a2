import assert from "node:assert/strict";
import {
  COT,
  cp56,
  decodeApci,
  decodeAsdu,
  endOfInitialisation,
  FrameError,
  iFrame,
  mirror,
  monitoringAsdus,
  objectsPerAsdu,
  QUALITY,
  readCp56,
  sFrame,
  splitFrames,
  TYPE,
  U,
  uFrame,
} from "./iec104_codec.ts";
import { clockSync, interrogation, readMonitoring, testCommand } from "./iec104_master.ts";

const bytes = (hex: string) => Uint8Array.from(hex.split(" ").map((h) => parseInt(h, 16)));
const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join(" ");

Deno.test("U-frames are byte-exact", () => {
  assert.equal(hex(uFrame(U.STARTDT_ACT)), "68 04 07 00 00 00");
  assert.equal(hex(uFrame(U.STARTDT_CON)), "68 04 0b 00 00 00");
  assert.equal(hex(uFrame(U.STOPDT_ACT)), "68 04 13 00 00 00");
  assert.equal(hex(uFrame(U.STOPDT_CON)), "68 04 23 00 00 00");
  assert.equal(hex(uFrame(U.TESTFR_ACT)), "68 04 43 00 00 00");
  assert.equal(hex(uFrame(U.TESTFR_CON)), "68 04 83 00 00 00");
});

Deno.test("S- and I-frames carry 15-bit sequence numbers", () => {
  assert.equal(hex(sFrame(5)), "68 04 01 00 0a 00");
  assert.equal(hex(sFrame(32767)), "68 04 01 00 fe ff");
  const asdu = bytes("64 01 06 00 01 00 00 00 00 14");
  assert.equal(hex(iFrame(0, 0, asdu)), "68 0e 00 00 00 00 64 01 06 00 01 00 00 00 00 14");
  assert.equal(hex(iFrame(32767, 300, asdu).subarray(0, 6)), "68 0e fe ff 58 02");
  const decoded = decodeApci(iFrame(32767, 300, asdu));
  assert.deepEqual(decoded.kind === "I" && [decoded.ns, decoded.nr], [32767, 300]);
  assert.deepEqual(decodeApci(sFrame(129)), { kind: "S", nr: 129 });
  assert.deepEqual(decodeApci(uFrame(U.TESTFR_ACT)), { kind: "U", fn: U.TESTFR_ACT });
});

Deno.test("splitFrames() keeps a partial frame and refuses a wrong start or length", () => {
  const stream = new Uint8Array([...uFrame(U.STARTDT_ACT), ...sFrame(1).subarray(0, 3)]);
  const { frames, rest } = splitFrames(stream);
  assert.equal(frames.length, 1);
  assert.equal(hex(rest), "68 04 01");
  assert.throws(() => splitFrames(bytes("67 04 07 00 00 00")), FrameError);
  assert.throws(() => splitFrames(bytes("68 03 07 00 00")), FrameError);
  assert.throws(() => splitFrames(bytes("68 fe 00")), FrameError);
});

Deno.test("decodeApci() refuses malformed control fields", () => {
  assert.throws(() => decodeApci(bytes("68 04 00 00 00 00")), FrameError); // I without ASDU
  assert.throws(() => decodeApci(bytes("68 04 0f 00 00 00")), FrameError); // unknown U
  assert.throws(() => decodeApci(bytes("68 05 01 00 00 00 01")), FrameError); // S with data
  assert.throws(() => decodeApci(bytes("68 04 07 00 00 01")), FrameError);
});

Deno.test("CP56Time2a encodes UTC with weekday and reads back", () => {
  const at = Date.UTC(2026, 10, 25, 18, 47, 58, 123); // a Wednesday
  assert.equal(hex(cp56(at)), "0b e3 2f 12 79 0b 1a");
  assert.deepEqual(readCp56(cp56(at), 0), { ms: at, invalid: false });
  assert.equal(readCp56(bytes("00 00 3c 00 01 01 00"), 0), null); // minute 60
});

Deno.test("M_ME_NC_1 and M_ME_TF_1 objects are byte-exact and split to fit an APDU", () => {
  const [asdu] = monitoringAsdus(TYPE.M_ME_NC_1, COT.INTERROGATED_STATION, 0x0102, [
    { ioa: 0x030201, value: 230.5, quality: 0 },
  ]);
  assert.equal(hex(asdu!), "0d 01 14 00 02 01 01 02 03 00 80 66 43 00");
  const at = Date.UTC(2026, 10, 25, 18, 47, 58, 123);
  const [timed] = monitoringAsdus(TYPE.M_ME_TF_1, COT.SPONTANEOUS, 1, [
    { ioa: 7, value: 230.5, quality: QUALITY.IV | QUALITY.NT, at },
  ]);
  assert.equal(hex(timed!), "24 01 03 00 01 00 07 00 00 00 80 66 43 c0 0b e3 2f 12 79 0b 1a");
  assert.equal(objectsPerAsdu(TYPE.M_ME_NC_1), 30);
  assert.equal(objectsPerAsdu(TYPE.M_ME_TF_1), 16);
  const many = Array.from({ length: 31 }, (_, k) => ({ ioa: k + 1, value: k, quality: 0 }));
  const split = monitoringAsdus(TYPE.M_ME_NC_1, COT.INTERROGATED_STATION, 1, many);
  assert.deepEqual(split.map((a) => a[1]), [30, 1]);
  assert.ok(split.every((a) => a.length <= 249));
  const back = split.flatMap((a) => readMonitoring(decodeAsdu(a)));
  assert.deepEqual(back.map((v) => v.ioa), many.map((v) => v.ioa));
});

Deno.test("single points carry the SIQ bits; M_SP_TB_1 its time tag", () => {
  const [sp] = monitoringAsdus(TYPE.M_SP_NA_1, COT.INTERROGATED_STATION, 1, [
    { ioa: 9, value: 1, quality: QUALITY.IV },
  ]);
  assert.equal(hex(sp!), "01 01 14 00 01 00 09 00 00 81");
  const at = Date.UTC(2026, 0, 4, 0, 0, 1, 0); // a Sunday: weekday 7
  const [tb] = monitoringAsdus(TYPE.M_SP_TB_1, COT.SPONTANEOUS, 1, [{
    ioa: 9,
    value: 0,
    quality: 0,
    at,
  }]);
  assert.equal(hex(tb!), "1e 01 03 00 01 00 09 00 00 00 e8 03 00 00 e4 01 1a");
});

Deno.test("end of initialisation and the master's commands are byte-exact", () => {
  assert.equal(hex(endOfInitialisation(1)), "46 01 04 00 01 00 00 00 00 00");
  assert.equal(hex(interrogation(1)), "64 01 06 00 01 00 00 00 00 14");
  const at = Date.UTC(2026, 10, 25, 18, 47, 58, 123);
  assert.equal(hex(clockSync(1, at)), "67 01 06 00 01 00 00 00 00 0b e3 2f 12 79 0b 1a");
  assert.equal(
    hex(testCommand(1, 0x1234, at)),
    "6b 01 06 00 01 00 00 00 00 34 12 0b e3 2f 12 79 0b 1a",
  );
  assert.equal(
    hex(mirror(interrogation(1), COT.ACTIVATION_CON, false)),
    "64 01 07 00 01 00 00 00 00 14",
  );
  assert.equal(
    hex(mirror(interrogation(1), COT.UNKNOWN_CAUSE, true)),
    "64 01 6d 00 01 00 00 00 00 14",
  );
});
