/**
 * An IEC 60870-5-104 master (controlling station) written for the tests, on node:net: it sends
 * U-frames and I-frames with its own sequence numbers, acknowledges the station's I-frames after
 * w of them (or not, to stall the k window), answers TESTFR act, and records every APDU in both
 * directions with its time (the tshark test writes them to a pcap).
 */
import net from "node:net";
import {
  type Apci,
  decodeApci,
  decodeAsdu,
  iFrame,
  sFrame,
  splitFrames,
  U,
  uFrame,
  type UFunction,
} from "../../modules/scada/iec104_codec.ts";

/** One APDU seen on the connection. */
export interface Seen {
  at: number;
  fromStation: boolean;
  bytes: Uint8Array;
  apci: Apci | null;
}

export interface MasterOptions {
  port: number;
  host?: string;
  localAddress?: string;
  /** Acknowledge after this many I-frames (0: never by itself). */
  w?: number;
}

/** A connected test master. */
export class TestMaster {
  readonly log: Seen[] = [];
  vs = 0;
  vr = 0;
  #unacked = 0;
  w: number;
  answerTests = true;
  readonly closed: Promise<void>;
  isClosed = false;
  #waiters: { match: (s: Seen) => boolean; resolve: (s: Seen) => void }[] = [];
  #input = new Uint8Array(0);
  #cursor = 0;

  private constructor(readonly socket: net.Socket, w: number) {
    this.w = w;
    this.closed = new Promise((resolve) =>
      socket.on("close", () => {
        this.isClosed = true;
        resolve();
      })
    );
    socket.on("error", () => undefined);
    socket.on("data", (chunk: Uint8Array) => this.#receive(chunk));
  }

  static connect(options: MasterOptions): Promise<TestMaster> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({
        port: options.port,
        host: options.host ?? "127.0.0.1",
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      });
      socket.setNoDelay(true);
      const master = new TestMaster(socket, options.w ?? 8);
      socket.once("connect", () => resolve(master));
      socket.once("error", reject);
    });
  }

  #receive(chunk: Uint8Array): void {
    const buffer = new Uint8Array(this.#input.length + chunk.length);
    buffer.set(this.#input);
    buffer.set(chunk, this.#input.length);
    const { frames, rest } = splitFrames(buffer);
    this.#input = rest.slice();
    for (const frame of frames) {
      const apci = decodeApci(frame);
      const seen: Seen = { at: Date.now(), fromStation: true, bytes: frame.slice(), apci };
      this.log.push(seen);
      if (apci.kind === "I") {
        this.vr = (apci.ns + 1) % 32768;
        this.#unacked++;
        if (this.w && this.#unacked >= this.w) this.ack();
      }
      if (apci.kind === "U" && apci.fn === U.TESTFR_ACT && this.answerTests) {
        this.raw(uFrame(U.TESTFR_CON));
      }
      for (const waiter of [...this.#waiters]) {
        if (waiter.match(seen)) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(seen);
        }
      }
    }
  }

  /** Sends bytes as they are (mutations included). */
  raw(bytes: Uint8Array): void {
    this.log.push({ at: Date.now(), fromStation: false, bytes: bytes.slice(), apci: null });
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  u(fn: UFunction): void {
    this.raw(uFrame(fn));
  }

  /** Sends an ASDU in an I-frame (acknowledging what was received). */
  send(asdu: Uint8Array): void {
    this.raw(iFrame(this.vs, this.vr, asdu));
    this.vs = (this.vs + 1) % 32768;
    this.#unacked = 0;
  }

  /** Acknowledges every I-frame received (S-frame). */
  ack(): void {
    this.#unacked = 0;
    this.raw(sFrame(this.vr));
  }

  /**
   * The next APDU from the station that matches: seen already at or after `since` (by default
   * after the one the previous call found), or coming.
   */
  next(match: (s: Seen) => boolean, timeoutMs = 3000, since = this.#cursor): Promise<Seen> {
    const index = this.log.findIndex((s, k) => k >= since && s.fromStation && match(s));
    if (index >= 0) {
      this.#cursor = index + 1;
      return Promise.resolve(this.log[index]!);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        reject(new Error("timeout waiting for a frame from the station"));
      }, timeoutMs);
      const waiter = {
        match: (s: Seen) => s.fromStation && match(s),
        resolve: (s: Seen) => {
          clearTimeout(timer);
          this.#cursor = this.log.indexOf(s) + 1;
          resolve(s);
        },
      };
      this.#waiters.push(waiter);
    });
  }

  /** The ASDUs of the station's I-frames since log position `since`. */
  asdus(since = 0) {
    return this.log.slice(since).filter((s) => s.fromStation && s.apci?.kind === "I")
      .map((s) => decodeAsdu((s.apci as { asdu: Uint8Array }).asdu));
  }

  close(): Promise<void> {
    this.socket.destroy();
    return this.closed;
  }
}

/** Waits `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Predicates on APDUs. */
export const isU = (fn: UFunction) => (s: Seen) => s.apci?.kind === "U" && s.apci.fn === fn;
export const isS = (s: Seen) => s.apci?.kind === "S";
export const isAsdu = (type: number, cause?: number) => (s: Seen) => {
  if (s.apci?.kind !== "I") return false;
  const asdu = decodeAsdu(s.apci.asdu);
  return asdu.type === type && (cause === undefined || asdu.cause === cause);
};
