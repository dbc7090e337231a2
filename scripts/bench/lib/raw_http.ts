/**
 * A minimal HTTP/1.1 client for the benchmarks' load generator: keep-alive connections, each
 * request built once as bytes before the timed sending, each answer read by its Content-Length.
 * Deno's `fetch` costs about 300 µs of CPU per request (headers objects, streams, promises): on a
 * 2-core machine the cells would take the core the platform is measured on. This one writes the
 * prepared bytes and scans the answer's head, nothing more. Only what the ingest benchmarks need:
 * no chunked answers, no redirects, no TLS (it refuses what it does not read).
 *
 * A connection the server closes (`connection: close`) is opened again before the next request,
 * as a cell's client would. Deno 2.9.5's server closed it after every request whose body did not
 * fit its first read (about 1 KB with the head; denoland/deno#36657); 2.9.6 keeps it.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CRLFCRLF = [13, 10, 13, 10];

/** The bytes of one POST request with a JSON body, ready to write on a kept-alive connection. */
export function postRequest(url: URL, headers: Record<string, string>, body: string): Uint8Array {
  const payload = encoder.encode(body);
  const head = [
    `POST ${url.pathname}${url.search} HTTP/1.1`,
    `host: ${url.host}`,
    "content-type: application/json",
    `content-length: ${payload.length}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "",
    "",
  ].join("\r\n");
  const bytes = new Uint8Array(head.length + payload.length);
  bytes.set(encoder.encode(head));
  bytes.set(payload, head.length);
  return bytes;
}

/** One answer: its status and its body as text. */
export interface RawAnswer {
  status: number;
  body: string;
}

/** One kept-alive connection: a request at a time. */
export class RawHttpConnection {
  #buffer = new Uint8Array(16 * 1024);
  #length = 0;
  #conn: Deno.TcpConn | null = null;
  /** Connections opened (the first one included). */
  opened = 0;

  constructor(private readonly url: URL) {
    if (url.protocol !== "http:") throw new Error(`raw_http: only http:, not ${url.protocol}`);
  }

  async #connect(): Promise<Deno.TcpConn> {
    const conn = await Deno.connect({
      hostname: this.url.hostname,
      port: Number(this.url.port || 80),
    });
    conn.setNoDelay(true);
    this.opened++;
    this.#length = 0;
    return this.#conn = conn;
  }

  /** Writes `request` and reads its answer. */
  async send(request: Uint8Array): Promise<RawAnswer> {
    const conn = this.#conn ?? await this.#connect();
    for (let written = 0; written < request.length;) {
      written += await conn.write(request.subarray(written));
    }
    let headEnd = -1;
    while ((headEnd = this.#find(CRLFCRLF)) < 0) await this.#fill();
    const head = decoder.decode(this.#buffer.subarray(0, headEnd));
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length || /\r\ntransfer-encoding:/i.test(head)) {
      throw new Error(`raw_http: an answer without Content-Length: ${head.slice(0, 200)}`);
    }
    const end = headEnd + 4 + Number(length[1]);
    while (this.#length < end) await this.#fill(end);
    const body = decoder.decode(this.#buffer.subarray(headEnd + 4, end));
    this.#buffer.copyWithin(0, end, this.#length);
    this.#length -= end;
    if (/\r\nconnection: *close/i.test(head)) this.close();
    return { status, body };
  }

  close(): void {
    this.#conn?.close();
    this.#conn = null;
  }

  #find(pattern: readonly number[]): number {
    const b = this.#buffer;
    for (let i = 0; i + pattern.length <= this.#length; i++) {
      if (
        b[i] === pattern[0] && b[i + 1] === pattern[1] && b[i + 2] === pattern[2] &&
        b[i + 3] === pattern[3]
      ) {
        return i;
      }
    }
    return -1;
  }

  /** Reads more bytes, growing the buffer to hold `atLeast` when given. */
  async #fill(atLeast = 0): Promise<void> {
    if (this.#buffer.length < Math.max(atLeast, this.#length + 4096)) {
      const grown = new Uint8Array(Math.max(atLeast, this.#buffer.length * 2));
      grown.set(this.#buffer.subarray(0, this.#length));
      this.#buffer = grown;
    }
    const n = await this.#conn!.read(this.#buffer.subarray(this.#length));
    if (n === null) throw new Error("raw_http: the server closed the connection");
    this.#length += n;
  }
}

/** `size` kept-alive connections to `url`, each used by one request at a time. */
export class RawHttpPool {
  readonly #all: RawHttpConnection[];
  readonly #idle: RawHttpConnection[];

  constructor(url: URL, size: number) {
    this.#all = Array.from({ length: size }, () => new RawHttpConnection(url));
    this.#idle = [...this.#all];
  }

  /** Connections opened so far (more than `size`: the server closed some). */
  get opened(): number {
    return this.#all.reduce((sum, c) => sum + c.opened, 0);
  }

  /** Sends on an idle connection (the caller keeps at most `size` requests in flight). */
  async send(request: Uint8Array): Promise<RawAnswer> {
    const connection = this.#idle.pop();
    if (!connection) throw new Error("raw_http: more requests in flight than connections");
    try {
      return await connection.send(request);
    } finally {
      this.#idle.push(connection);
    }
  }

  close(): void {
    for (const connection of this.#all) connection.close();
  }
}
