/**
 * IEC 60870-5-104 masters for the SCADA ingest benchmark, in a process of their own (as remote
 * SCADA masters are): on "connect <port>..." one master per port connects to 127.0.0.1, sends
 * STARTDT act, answers TESTFR act, acknowledges after w = 8 I-frames, and counts the objects of
 * every M_ME_TF_1 by their time tag (the 20-s window); on "disconnect" all close. Prints one JSON
 * line per master and window once `--points` objects of that window arrived:
 * `{"master":k,"window":"mm:ss.mmm","at":epochMs}`, and `{"started":n}` when all are started.
 *
 *   deno run -A scripts/bench/scada_masters.ts --points=60000
 */
import net from "node:net";
import {
  decodeApci,
  sFrame,
  splitFrames,
  TYPE,
  U,
  uFrame,
} from "../../modules/scada/iec104_codec.ts";

const POINTS = Number(Deno.args.find((a) => a.startsWith("--points="))?.slice(9) ?? 0);
/** Bytes of one M_ME_TF_1 object: IOA 3, float 4, quality 1, CP56Time2a 7. */
const OBJECT = 15;

const print = (line: unknown) => console.log(JSON.stringify(line));

let sockets: net.Socket[] = [];

function connect(ports: number[]): void {
  let started = 0;
  sockets = ports.map((port, master) => {
    const counts = new Map<string, number>();
    let input = new Uint8Array(0);
    let vr = 0;
    let unacked = 0;
    const socket = net.connect({ port, host: "127.0.0.1" }, () => {
      socket.write(uFrame(U.STARTDT_ACT));
    });
    socket.setNoDelay(true);
    socket.on("error", (error) => console.error(`master ${master + 1}: ${error.message}`));
    socket.on("data", (chunk: Uint8Array) => {
      const buffer = new Uint8Array(input.length + chunk.length);
      buffer.set(input);
      buffer.set(chunk, input.length);
      const { frames, rest } = splitFrames(buffer);
      input = rest.slice();
      for (const frame of frames) {
        const apci = decodeApci(frame);
        if (apci.kind === "U") {
          if (apci.fn === U.TESTFR_ACT) socket.write(uFrame(U.TESTFR_CON));
          if (apci.fn === U.STARTDT_CON && ++started === ports.length) {
            print({ started });
          }
          continue;
        }
        if (apci.kind !== "I") continue;
        vr = (apci.ns + 1) % 32768;
        if (++unacked >= 8) {
          unacked = 0;
          socket.write(sFrame(vr));
        }
        const asdu = apci.asdu;
        if (asdu[0] !== TYPE.M_ME_TF_1) continue;
        const n = asdu[1]! & 0x7f;
        for (let k = 0; k < n; k++) {
          // The time tag's milliseconds and minute identify the window within the hour.
          const t = 6 + k * OBJECT + 8;
          const window = `${asdu[t + 2]! & 0x3f}:${asdu[t]! | (asdu[t + 1]! << 8)}`;
          const count = (counts.get(window) ?? 0) + 1;
          counts.set(window, count);
          if (count === POINTS) print({ master, window, at: Date.now() });
        }
      }
    });
    return socket;
  });
}

const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
let buffered = "";
for await (const chunk of lines) {
  buffered += chunk;
  let newline: number;
  while ((newline = buffered.indexOf("\n")) >= 0) {
    const [command, ...args] = buffered.slice(0, newline).trim().split(" ");
    buffered = buffered.slice(newline + 1);
    if (command === "connect") connect(args.map(Number));
    else if (command === "disconnect") {
      for (const s of sockets) s.destroy();
      sockets = [];
      print({ disconnected: true });
    }
  }
}
