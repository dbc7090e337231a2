import assert from "node:assert/strict";
import { decodeApci, iFrame, sFrame, U, uFrame } from "./iec104_codec.ts";
import { Iec104Session, type SessionTimers } from "./iec104_session.ts";

const TIMERS: SessionTimers = { t1: 15, t2: 10, t3: 20, k: 12, w: 8 };
const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join(" ");
const ASDU = Uint8Array.of(0x46, 0x01, 0x04, 0x00, 0x01, 0x00, 0, 0, 0, 0);

/** A session with a fake clock that records what it sends and why it closed. */
function harness(timers: SessionTimers = TIMERS, maxBuffered?: number) {
  let now = 1_000_000;
  const sent: Uint8Array[] = [];
  const received: Uint8Array[] = [];
  let closed: string | null = null;
  const session = new Iec104Session(
    timers,
    {
      send: (b) => sent.push(b),
      close: (reason) => closed = reason,
      asdu: (a) => received.push(a),
    },
    () => now,
    maxBuffered,
  );
  return {
    session,
    sent,
    received,
    closed: () => closed,
    advance(ms: number) {
      now += ms;
      session.tick();
    },
    take() {
      return sent.splice(0).map((b) => decodeApci(b));
    },
  };
}

Deno.test("no I-frame before STARTDT; STARTDT con, then the queued ASDU", () => {
  const h = harness();
  h.session.queue(ASDU);
  assert.equal(h.sent.length, 0);
  h.session.receive(uFrame(U.STARTDT_ACT));
  assert.deepEqual(h.sent.map(hex), ["68 04 0b 00 00 00", hex(iFrame(0, 0, ASDU))]);
});

Deno.test("an I-frame before STARTDT closes", () => {
  const h = harness();
  h.session.receive(iFrame(0, 0, ASDU));
  assert.match(h.closed()!, /stopped/);
});

Deno.test("a wrong N(S) closes; an N(R) acknowledging unsent frames closes", () => {
  const h = harness();
  h.session.receive(uFrame(U.STARTDT_ACT));
  h.session.receive(iFrame(1, 0, ASDU));
  assert.match(h.closed()!, /wrong N\(S\) 1, expected 0/);
  const g = harness();
  g.session.receive(uFrame(U.STARTDT_ACT));
  g.session.queue(ASDU);
  g.session.receive(sFrame(1)); // fine: one sent
  assert.equal(g.closed(), null);
  g.session.receive(sFrame(2));
  assert.match(g.closed()!, /acknowledges unsent/);
});

Deno.test("k window: at most k unacknowledged, the rest after an acknowledgement", () => {
  const h = harness();
  h.session.receive(uFrame(U.STARTDT_ACT));
  h.take();
  for (let k = 0; k < 15; k++) h.session.queue(ASDU);
  assert.equal(h.take().length, 12);
  assert.equal(h.session.buffered, 3);
  h.session.receive(sFrame(5));
  const next = h.take();
  assert.deepEqual(next.map((f) => f.kind === "I" && f.ns), [12, 13, 14]);
});

Deno.test("w: an S-frame after w I-frames received, or after t2", () => {
  const h = harness();
  h.session.receive(uFrame(U.STARTDT_ACT));
  h.take();
  for (let k = 0; k < 8; k++) h.session.receive(iFrame(k, 0, ASDU));
  assert.deepEqual(h.sent.map(hex), [hex(sFrame(8))]);
  assert.equal(h.received.length, 8);
  h.take();
  h.session.receive(iFrame(8, 0, ASDU));
  h.advance(9_999);
  assert.equal(h.sent.length, 0);
  h.advance(1);
  assert.deepEqual(h.sent.map(hex), [hex(sFrame(9))]);
});

Deno.test("t3 idle sends TESTFR act; no con within t1 closes", () => {
  const h = harness();
  h.advance(19_999);
  assert.equal(h.sent.length, 0);
  h.advance(1);
  assert.deepEqual(h.sent.map(hex), ["68 04 43 00 00 00"]);
  h.session.receive(uFrame(U.TESTFR_CON));
  h.advance(15_000);
  assert.equal(h.closed(), null);
  h.advance(5_000);
  assert.equal(h.sent.length, 2);
  h.advance(15_000);
  assert.match(h.closed()!, /TESTFR/);
});

Deno.test("TESTFR act is answered even before STARTDT", () => {
  const h = harness();
  h.session.receive(uFrame(U.TESTFR_ACT));
  assert.deepEqual(h.sent.map(hex), ["68 04 83 00 00 00"]);
});

Deno.test("t1: an I-frame not acknowledged within t1 closes", () => {
  const h = harness();
  h.session.receive(uFrame(U.STARTDT_ACT));
  h.session.queue(ASDU);
  h.advance(14_999);
  assert.equal(h.closed(), null);
  h.advance(1);
  assert.match(h.closed()!, /t1/);
});

Deno.test("sequence numbers wrap at 32768 in both directions", () => {
  const h = harness({ ...TIMERS, k: 32767, w: 20000 });
  h.session.receive(uFrame(U.STARTDT_ACT));
  for (let n = 0; n < 32770; n++) {
    h.session.queue(ASDU);
    if (n % 1000 === 999) h.session.receive(sFrame((n + 1) % 32768));
  }
  const frames = h.take().filter((f) => f.kind === "I");
  assert.deepEqual(frames.slice(32766, 32770).map((f) => f.kind === "I" && f.ns), [
    32766,
    32767,
    0,
    1,
  ]);
  h.session.receive(sFrame(2));
  assert.equal(h.closed(), null);
  assert.equal(h.session.unacknowledged, 0);
  for (let n = 0; n < 32770; n++) h.session.receive(iFrame(n % 32768, 2, ASDU));
  assert.equal(h.closed(), null);
  assert.deepEqual(h.session.sequence, { vs: 2, vr: 2 });
});

Deno.test("STOPDT: S-frame first, con after our frames are acknowledged; data buffered, bounded", () => {
  const h = harness(TIMERS, 5);
  h.session.receive(uFrame(U.STARTDT_ACT));
  h.session.queue(ASDU);
  h.session.receive(iFrame(0, 0, ASDU));
  h.take();
  h.session.receive(uFrame(U.STOPDT_ACT));
  assert.deepEqual(h.sent.map(hex), [hex(sFrame(1))]); // no con: our frame 0 is unacknowledged
  h.take();
  for (let k = 0; k < 7; k++) h.session.queue(ASDU);
  assert.equal(h.sent.length, 0);
  assert.equal(h.session.buffered, 5);
  assert.equal(h.session.dropped, 2);
  h.session.receive(sFrame(1));
  assert.deepEqual(h.sent.map(hex), ["68 04 23 00 00 00"]);
  h.take();
  h.session.receive(uFrame(U.STARTDT_ACT));
  assert.equal(h.take().filter((f) => f.kind === "I").length, 5);
  h.session.receive(uFrame(U.STOPDT_ACT));
  h.session.receive(iFrame(1, 6, ASDU));
  assert.match(h.closed()!, /stopped/);
});

Deno.test("malformed bytes close the session and nothing runs after", () => {
  const h = harness();
  h.session.receive(Uint8Array.of(0x68, 0x02, 0x00, 0x00));
  assert.match(h.closed()!, /malformed/);
  h.session.receive(uFrame(U.TESTFR_ACT));
  assert.equal(h.sent.length, 0);
});

Deno.test("frames split across reads are reassembled", () => {
  const h = harness();
  const bytes = new Uint8Array([...uFrame(U.STARTDT_ACT), ...uFrame(U.TESTFR_ACT)]);
  for (const b of bytes) h.session.receive(Uint8Array.of(b));
  assert.equal(h.sent.length, 2);
  assert.equal(h.session.framesReceived, 2);
});
