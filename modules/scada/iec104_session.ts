/**
 * One IEC 60870-5-104 connection as the controlled station (server) runs it: U-frames
 * (STARTDT/STOPDT/TESTFR), I-frames numbered per connection (modulo 32768), S-frames, the k and
 * w windows and the t1, t2, t3 timers. Pure: bytes come in through `receive`, time through
 * `tick`, and everything leaves through the callbacks; no socket, no clock of its own.
 *
 * Rules (domain guide, "IEC 104 points real masters trip over"):
 * - nothing is sent in I-frames before STARTDT act; an I-frame received before STARTDT (or while
 *   stopped) closes the connection;
 * - a received N(S) other than the expected one, or an N(R) acknowledging frames never sent,
 *   closes it; so does a malformed APDU;
 * - at most k I-frames unacknowledged, then data waits; received I-frames are acknowledged
 *   after w of them or t2 (an S-frame), or with the next I-frame sent;
 * - t3 without a frame received: TESTFR act; no TESTFR con within t1, or an I-frame not
 *   acknowledged within t1: close;
 * - STOPDT act: an S-frame first when received I-frames are unacknowledged; STOPDT con once
 *   every I-frame sent is acknowledged; what is queued meanwhile waits (bounded).
 */
import {
  type Apci,
  decodeApci,
  FrameError,
  iFrame,
  SEQ_MODULO,
  sFrame,
  splitFrames,
  U,
  uFrame,
} from "./iec104_codec.ts";

/** The timers (s) and windows of a connection (a profile's settings). */
export interface SessionTimers {
  t1: number;
  t2: number;
  t3: number;
  k: number;
  w: number;
}

/** What a session does to the outside world. */
export interface SessionCallbacks {
  send(bytes: Uint8Array): void;
  close(reason: string): void;
  /** An ASDU received in an I-frame (the station answers it through `queue`). */
  asdu(asdu: Uint8Array): void;
}

/** Most ASDUs held for a stopped (or stalled) connection; the oldest go first. */
export const DEFAULT_MAX_BUFFERED = 10_000;

const mod = (n: number) => ((n % SEQ_MODULO) + SEQ_MODULO) % SEQ_MODULO;

/** The state machine of one connection. */
export class Iec104Session {
  #vs = 0;
  #vr = 0;
  /** N(R) last received: our frames before it are acknowledged. */
  #ackBase = 0;
  /** Send times of our unacknowledged I-frames, oldest first. */
  #unacked: number[] = [];
  /** I-frames received and not yet acknowledged, and when the first of them arrived. */
  #received = 0;
  #receivedSince = 0;
  #lastReceivedAt: number;
  #testSentAt: number | null = null;
  #started = false;
  #stopConPending = false;
  #closed = false;
  #input: Uint8Array = new Uint8Array(0);
  #queue: Uint8Array[] = [];
  #head = 0;
  framesSent = 0;
  framesReceived = 0;
  /** ASDUs dropped because the buffer was full. */
  dropped = 0;

  constructor(
    private readonly timers: SessionTimers,
    private readonly callbacks: SessionCallbacks,
    private readonly now: () => number,
    private readonly maxBuffered = DEFAULT_MAX_BUFFERED,
  ) {
    this.#lastReceivedAt = now();
  }

  /** STARTDT act received and not stopped since. */
  get started(): boolean {
    return this.#started;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** ASDUs waiting to be sent. */
  get buffered(): number {
    return this.#queue.length - this.#head;
  }

  /** Our I-frames the master has not acknowledged. */
  get unacknowledged(): number {
    return this.#unacked.length;
  }

  /** Sequence numbers: next N(S) to send, next N(S) expected. */
  get sequence(): { vs: number; vr: number } {
    return { vs: this.#vs, vr: this.#vr };
  }

  /** Queues an ASDU; it is sent as soon as the connection is started and the window allows. */
  queue(asdu: Uint8Array): void {
    if (this.#closed) return;
    this.#queue.push(asdu);
    if (this.buffered > this.maxBuffered) {
      this.#head++;
      this.dropped++;
    }
    this.#compact();
    this.#flush();
  }

  /** Bytes from the socket (any split). */
  receive(bytes: Uint8Array): void {
    if (this.#closed) return;
    let buffer = bytes;
    if (this.#input.length) {
      buffer = new Uint8Array(this.#input.length + bytes.length);
      buffer.set(this.#input);
      buffer.set(bytes, this.#input.length);
    }
    let frames: Uint8Array[];
    try {
      const split = splitFrames(buffer);
      frames = split.frames;
      this.#input = split.rest.slice();
    } catch (error) {
      this.#close(`malformed APDU: ${(error as Error).message}`);
      return;
    }
    for (const frame of frames) {
      if (this.#closed) return;
      let apci: Apci;
      try {
        apci = decodeApci(frame);
      } catch (error) {
        this.#close(`malformed APDU: ${(error as Error).message}`);
        return;
      }
      this.framesReceived++;
      this.#lastReceivedAt = this.now();
      this.#testSentAt = null; // any frame shows the peer alive
      this.#handle(apci);
    }
  }

  /** Runs the timers (call it often: every 100-250 ms). */
  tick(): void {
    if (this.#closed) return;
    const now = this.now();
    const { t1, t2, t3 } = this.timers;
    if (this.#unacked.length && now - this.#unacked[0]! >= t1 * 1000) {
      this.#close("t1 expired: I-frame not acknowledged");
      return;
    }
    if (this.#testSentAt !== null && now - this.#testSentAt >= t1 * 1000) {
      this.#close("t1 expired: no TESTFR con");
      return;
    }
    if (this.#received > 0 && now - this.#receivedSince >= t2 * 1000) this.#acknowledge();
    if (this.#testSentAt === null && now - this.#lastReceivedAt >= t3 * 1000) {
      this.#testSentAt = now;
      this.#send(uFrame(U.TESTFR_ACT));
    }
  }

  /** Ends the session (the socket closes or another connection takes over). */
  close(reason: string): void {
    this.#close(reason);
  }

  #handle(apci: Apci): void {
    switch (apci.kind) {
      case "I": {
        if (!this.#started) return this.#close("I-frame while data transfer is stopped");
        if (apci.ns !== this.#vr) {
          return this.#close(`wrong N(S) ${apci.ns}, expected ${this.#vr}`);
        }
        if (!this.#ack(apci.nr)) return;
        this.#vr = mod(this.#vr + 1);
        if (this.#received++ === 0) this.#receivedSince = this.now();
        if (this.#received >= this.timers.w) this.#acknowledge();
        this.callbacks.asdu(apci.asdu);
        if (!this.#closed) this.#flush();
        return;
      }
      case "S":
        if (this.#ack(apci.nr)) this.#flush();
        return;
      case "U":
        switch (apci.fn) {
          case U.STARTDT_ACT:
            this.#started = true;
            this.#stopConPending = false;
            this.#send(uFrame(U.STARTDT_CON));
            this.#flush();
            return;
          case U.STOPDT_ACT:
            if (this.#received > 0) this.#acknowledge();
            this.#started = false;
            if (this.#unacked.length) this.#stopConPending = true;
            else this.#send(uFrame(U.STOPDT_CON));
            return;
          case U.TESTFR_ACT:
            this.#send(uFrame(U.TESTFR_CON));
            return;
          default:
            // TESTFR con clears the pending test above; STARTDT/STOPDT con are ignored.
            return;
        }
    }
  }

  /** Applies a received N(R); false (and closed) when it acknowledges frames never sent. */
  #ack(nr: number): boolean {
    const count = mod(nr - this.#ackBase);
    if (count > this.#unacked.length) {
      this.#close(`N(R) ${nr} acknowledges unsent frames (sent up to ${mod(this.#vs - 1)})`);
      return false;
    }
    if (count) {
      this.#unacked.splice(0, count);
      this.#ackBase = nr;
    }
    if (this.#stopConPending && !this.#unacked.length) {
      this.#stopConPending = false;
      this.#send(uFrame(U.STOPDT_CON));
    }
    return true;
  }

  #acknowledge(): void {
    this.#received = 0;
    this.#send(sFrame(this.#vr));
  }

  #flush(): void {
    while (
      !this.#closed && this.#started && this.#head < this.#queue.length &&
      this.#unacked.length < this.timers.k
    ) {
      const asdu = this.#queue[this.#head++]!;
      this.#unacked.push(this.now());
      this.#received = 0; // the I-frame's N(R) acknowledges what was received
      const frame = iFrame(this.#vs, this.#vr, asdu);
      this.#vs = mod(this.#vs + 1);
      this.#send(frame);
    }
    this.#compact();
  }

  #compact(): void {
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }

  #send(bytes: Uint8Array): void {
    if (this.#closed) return;
    this.framesSent++;
    this.callbacks.send(bytes);
  }

  #close(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = [];
    this.#head = 0;
    this.callbacks.close(reason);
  }
}

export { FrameError };
