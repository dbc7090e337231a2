/**
 * STOMP 1.2 frames (https://stomp.github.io/stomp-specification-1.2.html): an incremental
 * parser for the bytes of WebSocket messages and a serializer. A frame is a command line,
 * header lines, an empty line and a body ended by NUL; lines end in LF or CRLF; a lone EOL
 * between frames is a heart-beat. Header values are escaped (\\r \\n \\c \\\\) except in
 * CONNECT and CONNECTED frames; the first of repeated headers wins; `content-length` fixes the
 * body size (the body may then contain NUL).
 */

/** A parsed or outgoing frame. Header names keep their case (STOMP headers are case-sensitive). */
export interface StompFrame {
  command: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** A frame the parser refuses; the server answers it with an ERROR frame and closes. */
export class StompProtocolError extends Error {
  override name = "StompProtocolError";
}

/** What {@link StompParser.push} yields: frames, and heart-beats (lone EOLs). */
export type ParsedItem = StompFrame | "heartbeat";

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Commands a client may send (spec 1.2, "Client Frames"). */
const CLIENT_COMMANDS = new Set([
  "CONNECT",
  "STOMP",
  "SEND",
  "SUBSCRIBE",
  "UNSUBSCRIBE",
  "ACK",
  "NACK",
  "BEGIN",
  "COMMIT",
  "ABORT",
  "DISCONNECT",
]);
/** Commands a server sends (also parsed, so tests can read the server's frames). */
const SERVER_COMMANDS = new Set(["CONNECTED", "MESSAGE", "RECEIPT", "ERROR"]);

/** Frames whose header values are not escaped (spec 1.2, "Value Encoding"). */
function escapesHeaders(command: string): boolean {
  return command !== "CONNECT" && command !== "CONNECTED";
}

/** Decodes an escaped header value; an undefined escape is a fatal protocol error. */
export function unescapeHeader(value: string): string {
  if (!value.includes("\\")) return value;
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = value[++i];
    if (next === "r") out += "\r";
    else if (next === "n") out += "\n";
    else if (next === "c") out += ":";
    else if (next === "\\") out += "\\";
    else throw new StompProtocolError(`Undefined escape sequence \\${next ?? ""} in a header`);
  }
  return out;
}

/** Escapes a header value for frames other than CONNECT/CONNECTED. */
export function escapeHeader(value: string): string {
  return value.replace(
    /[\\\r\n:]/g,
    (ch) => ch === "\\" ? "\\\\" : ch === "\r" ? "\\r" : ch === "\n" ? "\\n" : "\\c",
  );
}

/**
 * Incremental parser: feed it every WebSocket message (text or binary) with {@link push}; a
 * frame may span messages and a message may hold several frames. Frames larger than
 * `maxFrameBytes` (headers and body) are refused.
 */
export class StompParser {
  #buffer: Uint8Array = new Uint8Array(0);
  readonly #maxFrameBytes: number;
  readonly #commands: Set<string>;

  constructor(opts: { maxFrameBytes?: number; side?: "server" | "client" } = {}) {
    this.#maxFrameBytes = opts.maxFrameBytes ?? 64 * 1024;
    this.#commands = opts.side === "client" ? SERVER_COMMANDS : CLIENT_COMMANDS;
  }

  /** Appends data and returns every complete frame and heart-beat in it. */
  push(data: string | Uint8Array | ArrayBuffer): ParsedItem[] {
    const bytes = typeof data === "string"
      ? encoder.encode(data)
      : data instanceof Uint8Array
      ? data
      : new Uint8Array(data);
    const joined = new Uint8Array(this.#buffer.length + bytes.length);
    joined.set(this.#buffer);
    joined.set(bytes, this.#buffer.length);
    this.#buffer = joined;
    const items: ParsedItem[] = [];
    for (;;) {
      const item = this.#next();
      if (!item) break;
      items.push(item);
    }
    if (this.#buffer.length > this.#maxFrameBytes) {
      throw new StompProtocolError(`Frame larger than ${this.#maxFrameBytes} bytes`);
    }
    return items;
  }

  /** Takes one frame or heart-beat from the buffer, or returns null when more bytes are needed. */
  #next(): ParsedItem | null {
    const buf = this.#buffer;
    if (buf.length === 0) return null;
    if (buf[0] === LF) {
      this.#buffer = buf.subarray(1);
      return "heartbeat";
    }
    if (buf[0] === CR) {
      if (buf.length < 2) return null;
      if (buf[1] !== LF) throw new StompProtocolError("CR not followed by LF");
      this.#buffer = buf.subarray(2);
      return "heartbeat";
    }
    // Command and headers end at the first empty line.
    let pos = 0;
    const lines: string[] = [];
    for (;;) {
      const lf = buf.indexOf(LF, pos);
      if (lf === -1) {
        if (buf.indexOf(NUL, pos) !== -1) {
          throw new StompProtocolError("Frame ended in its headers");
        }
        return null;
      }
      const end = lf > pos && buf[lf - 1] === CR ? lf - 1 : lf;
      const line = this.#text(buf.subarray(pos, end));
      pos = lf + 1;
      if (line === "") break;
      lines.push(line);
    }
    const command = lines.shift();
    if (!command || !this.#commands.has(command)) {
      throw new StompProtocolError(`Unknown command ${JSON.stringify(command ?? "")}`);
    }
    const escaped = escapesHeaders(command);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      if (colon <= 0) throw new StompProtocolError(`Malformed header line ${JSON.stringify(line)}`);
      const name = escaped ? unescapeHeader(line.slice(0, colon)) : line.slice(0, colon);
      const value = escaped ? unescapeHeader(line.slice(colon + 1)) : line.slice(colon + 1);
      if (!Object.hasOwn(headers, name)) headers[name] = value;
    }
    let bodyEnd: number;
    const lengthHeader = headers["content-length"];
    if (lengthHeader !== undefined) {
      if (!/^\d{1,9}$/.test(lengthHeader)) {
        throw new StompProtocolError(`Invalid content-length ${JSON.stringify(lengthHeader)}`);
      }
      const length = Number(lengthHeader);
      if (pos + length > this.#maxFrameBytes) {
        throw new StompProtocolError(`Frame larger than ${this.#maxFrameBytes} bytes`);
      }
      bodyEnd = pos + length;
      if (buf.length <= bodyEnd) return null;
      if (buf[bodyEnd] !== NUL) {
        throw new StompProtocolError("Frame body is not followed by NUL at content-length");
      }
    } else {
      bodyEnd = buf.indexOf(NUL, pos);
      if (bodyEnd === -1) return null;
    }
    // A whole frame inside one message is held to the limit as a partial one is.
    if (bodyEnd + 1 > this.#maxFrameBytes) {
      throw new StompProtocolError(`Frame larger than ${this.#maxFrameBytes} bytes`);
    }
    const body = buf.slice(pos, bodyEnd);
    this.#buffer = buf.subarray(bodyEnd + 1);
    return { command, headers, body };
  }

  #text(bytes: Uint8Array): string {
    try {
      return decoder.decode(bytes);
    } catch {
      throw new StompProtocolError("Frame headers are not valid UTF-8");
    }
  }
}

/** Serializes a frame (LF line ends, content-length for every non-empty body, NUL). */
export function serializeFrame(
  command: string,
  headers: Record<string, string> = {},
  body: string | Uint8Array = "",
): Uint8Array {
  const bodyBytes = typeof body === "string" ? encoder.encode(body) : body;
  const escaped = escapesHeaders(command);
  let head = `${command}\n`;
  for (const [name, value] of Object.entries(headers)) {
    head += escaped ? `${escapeHeader(name)}:${escapeHeader(value)}\n` : `${name}:${value}\n`;
  }
  if (bodyBytes.length > 0 && !Object.hasOwn(headers, "content-length")) {
    head += `content-length:${bodyBytes.length}\n`;
  }
  head += "\n";
  const headBytes = encoder.encode(head);
  const out = new Uint8Array(headBytes.length + bodyBytes.length + 1);
  out.set(headBytes);
  out.set(bodyBytes, headBytes.length);
  out[out.length - 1] = NUL;
  return out;
}

/** The body of a frame as UTF-8 text. */
export function bodyText(frame: StompFrame): string {
  return new TextDecoder().decode(frame.body);
}
