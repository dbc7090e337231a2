/**
 * STOMP 1.2 over WebSocket at /nsm/websocket (spec 7; docs/contracts.md, "Notification calls").
 * The client authenticates in its CONNECT frame (`Authorization: Bearer <token>`, or the token
 * as `passcode`), subscribes to its own destination `/user/{userId}/notifications` and receives
 * MESSAGE frames whose body is a JSON list of notifications. Heart-beats are negotiated from the
 * server's offer of 25000,25000; a connection silent for 2.5 times the agreed interval is closed.
 * The session is here; the socket endpoint in stomp_socket.ts, the sessions by user in stomp_hub.ts.
 */
import {
  AppError,
  type Logger,
  type Principal,
  type TenantDirectory,
  type TokenVerifier,
} from "../../kernel/mod.ts";
import type { NotificationDto } from "./service.ts";
import type { NotificationHub } from "./stomp_hub.ts";
import {
  type ParsedItem,
  serializeFrame,
  type StompFrame,
  StompParser,
  StompProtocolError,
} from "./stomp_frame.ts";

/** The one destination a user may subscribe to. */
export function notificationDestination(userId: string): string {
  return `/user/${userId}/notifications`;
}

/** Tunables of the STOMP endpoint (tests shorten the times). */
export interface StompOptions {
  verifier: TokenVerifier;
  /** Resolves the token's auth connection name to its customer key. */
  tenants: Pick<TenantDirectory, "byConnection">;
  logger: Logger;
  /** The heart-beat the server offers in both directions, in ms (default 25000). */
  heartbeatMs?: number;
  /** Largest accepted client frame in bytes (default 64 KiB). */
  maxFrameBytes?: number;
  /** Time allowed between opening the socket and a valid CONNECT, in ms (default 10000). */
  connectTimeoutMs?: number;
}

/** Subscriptions one session may hold (the product needs one: the user's notifications). */
export const MAX_SUBSCRIPTIONS = 8;
/** Live sessions of one user (tabs and windows); the next CONNECT gets an ERROR. */
export const MAX_SESSIONS_PER_USER = 16;

/** What a session needs from its transport (a WebSocket, or a fake in unit tests). */
export interface StompTransport {
  send(text: string): void;
  close(code: number, reason: string): void;
}

const decoder = new TextDecoder();
const SERVER_NAME = "GridWatch-nsm/1.0";
/** Silence tolerated on an agreed heart-beat interval, as a multiple of it. */
export const SILENCE_FACTOR = 2.5;

/** Parses a `heart-beat` header (`cx,cy`); missing or malformed reads as 0,0. */
export function parseHeartBeat(value: string | undefined): [number, number] {
  const match = /^(\d{1,9}),(\d{1,9})$/.exec(value?.trim() ?? "");
  return match ? [Number(match[1]), Number(match[2])] : [0, 0];
}

/**
 * The negotiated intervals (spec 1.2, "Heart-beating"): the server sends every
 * max(server offer, client wish) unless the client wishes none, and expects a frame or EOL from
 * the client every max(client offer, server wish) unless the client offers none.
 */
export function negotiateHeartBeat(
  client: [number, number],
  serverMs: number,
): { outgoing: number; incoming: number } {
  const [cx, cy] = client;
  return {
    outgoing: cy === 0 || serverMs === 0 ? 0 : Math.max(serverMs, cy),
    incoming: cx === 0 || serverMs === 0 ? 0 : Math.max(serverMs, cx),
  };
}

/** One STOMP connection: protocol state, its subscriptions and heart-beat timers. */
export class StompSession {
  readonly id = crypto.randomUUID();
  principal: Principal | null = null;
  readonly subscriptions = new Map<string, string>();
  #state: "connecting" | "connected" | "closed" = "connecting";
  #queue: Promise<void> = Promise.resolve();
  #lastReceived = Date.now();
  #timers: ReturnType<typeof setTimeout>[] = [];
  readonly #parser: StompParser;

  constructor(
    private readonly transport: StompTransport,
    private readonly hub: NotificationHub,
    private readonly options: StompOptions,
  ) {
    this.#parser = new StompParser({ maxFrameBytes: options.maxFrameBytes ?? 64 * 1024 });
    const connectTimeout = options.connectTimeoutMs ?? 10_000;
    this.#timers.push(setTimeout(() => {
      if (this.#state === "connecting") this.#fail("No CONNECT frame received in time");
    }, connectTimeout));
  }

  get connected(): boolean {
    return this.#state === "connected";
  }

  /** Feeds one WebSocket message. */
  receive(data: string | ArrayBuffer | Uint8Array): void {
    if (this.#state === "closed") return;
    this.#lastReceived = Date.now();
    let items: ParsedItem[];
    try {
      items = this.#parser.push(data);
    } catch (error) {
      this.#fail(error instanceof StompProtocolError ? error.message : "Malformed frame");
      return;
    }
    for (const item of items) {
      if (item === "heartbeat") continue;
      this.#queue = this.#queue.then(() => this.#handle(item)).catch((error) => {
        this.options.logger.error("STOMP frame handling failed", { error });
        this.#fail("Internal error");
      });
    }
  }

  /** Sends notifications to every subscription of this session. */
  deliver(list: readonly NotificationDto[]): void {
    if (this.#state !== "connected" || list.length === 0) return;
    const body = JSON.stringify(list);
    for (const [id, destination] of this.subscriptions) {
      this.#send("MESSAGE", {
        subscription: id,
        "message-id": crypto.randomUUID(),
        destination,
        "content-type": "application/json",
      }, body);
    }
  }

  /** Ends the session with an ERROR frame (e.g. its user's access was revoked), then closes. */
  fail(message: string): void {
    this.#fail(message);
  }

  /** Ends the session (socket closed, or the platform stops). */
  close(code = 1000, reason = "Closed"): void {
    if (this.#state === "closed") return;
    this.#state = "closed";
    for (const timer of this.#timers) {
      clearTimeout(timer);
      clearInterval(timer);
    }
    this.hub.remove(this);
    try {
      this.transport.close(code, reason);
    } catch {
      // Already closed by the peer.
    }
  }

  async #handle(frame: StompFrame): Promise<void> {
    if (this.#state === "closed") return;
    if (this.#state === "connecting") {
      if (frame.command !== "CONNECT" && frame.command !== "STOMP") {
        return this.#fail("The first frame must be CONNECT", frame);
      }
      return await this.#connect(frame);
    }
    switch (frame.command) {
      case "SUBSCRIBE":
        return this.#subscribe(frame);
      case "UNSUBSCRIBE": {
        const id = frame.headers.id;
        if (!id || !this.subscriptions.delete(id)) {
          return this.#fail("Unknown subscription id", frame);
        }
        return this.#receipt(frame);
      }
      case "DISCONNECT":
        this.#receipt(frame);
        return this.close(1000, "Disconnected");
      case "ACK":
      case "NACK":
        // Subscriptions are ack:auto; acknowledgements are accepted and have no effect.
        return this.#receipt(frame);
      case "CONNECT":
      case "STOMP":
        return this.#fail("Already connected", frame);
      default:
        return this.#fail(`${frame.command} is not supported by this server`, frame);
    }
  }

  async #connect(frame: StompFrame): Promise<void> {
    const versions = (frame.headers["accept-version"] ?? "1.0").split(",").map((v) => v.trim());
    if (!versions.includes("1.2")) {
      return this.#fail("Supported protocol versions are 1.2", frame, { version: "1.2" });
    }
    const token = bearerToken(frame.headers);
    if (!token) return this.#fail("Unauthorized: no bearer token in the CONNECT frame", frame);
    let principal: Principal;
    try {
      principal = await this.options.verifier.verify(token);
    } catch (error) {
      if (error instanceof AppError) return this.#fail("Unauthorized: invalid token", frame);
      throw error;
    }
    if (!(await this.options.tenants.byConnection(principal.customer))) {
      return this.#fail("Unauthorized: unknown customer", frame);
    }
    if (this.#state !== "connecting") return;
    if (this.hub.size(principal.userId) >= MAX_SESSIONS_PER_USER) {
      return this.#fail(`At most ${MAX_SESSIONS_PER_USER} sessions per user`, frame);
    }
    this.principal = principal;
    this.#state = "connected";
    const serverMs = this.options.heartbeatMs ?? 25_000;
    const { outgoing, incoming } = negotiateHeartBeat(
      parseHeartBeat(frame.headers["heart-beat"]),
      serverMs,
    );
    this.#send("CONNECTED", {
      version: "1.2",
      "heart-beat": `${serverMs},${serverMs}`,
      server: SERVER_NAME,
      session: this.id,
      "user-name": principal.userId,
    });
    if (outgoing > 0) this.#timers.push(setInterval(() => this.#sendRaw("\n"), outgoing));
    if (incoming > 0) {
      this.#timers.push(setInterval(() => {
        if (Date.now() - this.#lastReceived > incoming * SILENCE_FACTOR) {
          this.options.logger.info("STOMP connection silent, closed", { session: this.id });
          this.close(4000, "Heart-beat timeout");
        }
      }, Math.max(50, Math.round(incoming / 2))));
    }
    const expiresInMs = tokenExpiry(token) - Date.now();
    if (Number.isFinite(expiresInMs)) {
      // The session ends with its token; the client reconnects with a fresh one.
      this.#timers.push(
        setTimeout(() => this.close(4001, "Token expired"), Math.max(0, expiresInMs)),
      );
    }
    this.hub.add(principal.userId, this);
  }

  #subscribe(frame: StompFrame): void {
    const { id, destination } = frame.headers;
    if (!id || !destination) return this.#fail("SUBSCRIBE needs id and destination", frame);
    if (destination !== notificationDestination(this.principal!.userId)) {
      return this.#fail(`Forbidden destination ${destination}`, frame);
    }
    if (this.subscriptions.has(id)) return this.#fail("Duplicate subscription id", frame);
    if (this.subscriptions.size >= MAX_SUBSCRIPTIONS) {
      return this.#fail(`At most ${MAX_SUBSCRIPTIONS} subscriptions per session`, frame);
    }
    this.subscriptions.set(id, destination);
    this.#receipt(frame);
  }

  #receipt(frame: StompFrame): void {
    const receipt = frame.headers.receipt;
    if (receipt !== undefined) this.#send("RECEIPT", { "receipt-id": receipt });
  }

  /** Sends an ERROR frame and closes (spec 1.2: the server closes after ERROR). */
  #fail(message: string, frame?: StompFrame, extra: Record<string, string> = {}): void {
    if (this.#state === "closed") return;
    const headers: Record<string, string> = { message, ...extra, "content-type": "text/plain" };
    if (frame?.headers.receipt !== undefined) headers["receipt-id"] = frame.headers.receipt;
    this.#send("ERROR", headers, message);
    this.close(1008, message.slice(0, 100));
  }

  #send(command: string, headers: Record<string, string>, body = ""): void {
    this.#sendRaw(decoder.decode(serializeFrame(command, headers, body)));
  }

  #sendRaw(text: string): void {
    if (this.#state === "closed") return;
    try {
      this.transport.send(text);
    } catch {
      this.close(1011, "Send failed");
    }
  }
}

/** The `exp` of a verified JWT in ms since the epoch, or NaN when it has none. */
export function tokenExpiry(token: string): number {
  try {
    const part = token.split(".")[1] ?? "";
    const json = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === "number" ? exp * 1000 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The token of a CONNECT frame: `Authorization: Bearer <t>` (any case), or `passcode`. */
export function bearerToken(headers: Record<string, string>): string | null {
  const authorization = headers.Authorization ?? headers.authorization;
  const fromHeader = authorization && /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1];
  if (fromHeader) return fromHeader;
  const passcode = headers.passcode?.trim().replace(/^Bearer\s+/i, "");
  return passcode ? passcode : null;
}
