/**
 * The SCADA connector: one IEC 60870-5-104 listener (node:net) per activated profile, its
 * master's connection (only the profile's IP address may connect; others are closed at once; a
 * second connection from the master takes over from the first), the station's answers and the
 * spontaneous data of its points:
 * - M_ME_TF_1 (cause 3) when a new 20-s value of a U, I, P, Q or frequency point is committed
 *   (unless the profile's deadband of its quantity holds it back);
 * - M_SP_TB_1 (cause 3) when a node's state (warning or alarm) or its cell's connection changes;
 * - quality IV + NT on the values of a node whose cell is not connected (no live value).
 */
import net from "node:net";
import process from "node:process";
import type { Logger } from "../../kernel/mod.ts";
import type { ListenerDto, TimersDto } from "./contract.ts";
import { type LatestSource, PointTable } from "./point_table.ts";
import type { ScadaConnectionChanged } from "./events.ts";
import {
  COT,
  endOfInitialisation,
  monitoringAsdus,
  type PointValue,
  TYPE,
} from "./iec104_codec.ts";
import { Iec104Session } from "./iec104_session.ts";
import { answer } from "./iec104_station.ts";
import type { RunningProfile } from "./service.ts";
export { type GridIndex, STALE_MS } from "./point_table.ts";
import type { GridIndex } from "./point_table.ts";

/** How often the session timers run. */
const TICK_MS = 100;
/** How often the cells' connection is checked for changes. */
const CONNECTIVITY_MS = 5_000;
/** How often a profile that could not listen tries again, and the grid index is read again. */
const RETRY_MS = 30_000;

/** Dependencies of the connector. */
export interface ConnectorDeps {
  profiles: {
    allActivated(): Promise<RunningProfile[]>;
    running(id: string): Promise<RunningProfile | null>;
  };
  grid(customerKey: string): Promise<GridIndex>;
  latest: LatestSource;
  seriesId(cellId: string, slot: number, phase: number): number | undefined;
  /** The current state of every node of a customer (LV grid status). */
  nodeStates(customerKey: string): Promise<Map<string, string>>;
  publish(event: ScadaConnectionChanged): void;
  logger: Logger;
  /** Address the listeners bind (default all interfaces). */
  host?: string;
  now?: () => number;
}

/** One master connection. */
interface Connection {
  socket: net.Socket;
  session: Iec104Session;
  address: string;
  port: number;
  since: number;
  reason: string;
}

/** A listening profile. */
class Runtime {
  server: net.Server | null = null;
  listening = false;
  connection: Connection | null = null;
  table: PointTable | null = null;
  framesSent = 0;
  framesReceived = 0;
  lastError: string | null = null;
  lastErrorAt: number | null = null;
  retryAt = 0;
  /** Clock synchronisation last received (the station keeps the system clock). */
  clockOffsetMs: number | null = null;

  constructor(public profile: RunningProfile) {}

  get timers(): TimersDto {
    return this.profile.timers;
  }
}

/** Strips the IPv4-mapped prefix of IPv6 addresses. */
export function normalizeAddress(address: string | undefined): string {
  const a = (address ?? "").toLowerCase();
  return a.startsWith("::ffff:") && a.includes(".") ? a.slice(7) : a;
}

/** The connector: started with every activated profile, reloaded per profile on change. */
export class ScadaConnector {
  readonly #runtimes = new Map<string, Runtime>();
  readonly #states = new Map<string, Map<string, string>>();
  readonly #reloads = new Map<string, Promise<void>>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #lastConnectivity = 0;
  #lastGrid = 0;
  #closed = false;
  readonly #now: () => number;

  constructor(private readonly deps: ConnectorDeps) {
    this.#now = deps.now ?? Date.now;
  }

  async start(): Promise<void> {
    for (const profile of await this.deps.profiles.allActivated()) await this.#open(profile);
    this.#lastConnectivity = this.#lastGrid = this.#now();
    this.#timer = setInterval(() => this.#tick(), TICK_MS);
  }

  /** Re-reads one profile and reopens its listener (after a write of the service). */
  reload(profileId: string): Promise<void> {
    const previous = this.#reloads.get(profileId) ?? Promise.resolve();
    const next = previous.then(async () => {
      if (this.#closed) return;
      await this.#stop(profileId);
      const profile = await this.deps.profiles.running(profileId);
      if (profile?.activated && !this.#closed) await this.#open(profile);
    }).catch((error) => this.deps.logger.error("SCADA profile reload failed", { error }));
    this.#reloads.set(profileId, next);
    return next;
  }

  /** Waits for the reloads under way (tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.#reloads.values()]);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.settled();
    await Promise.all([...this.#runtimes.keys()].map((id) => this.#stop(id)));
  }

  /** The state of the customer's listeners. */
  status(customerKey: string): ListenerDto[] {
    const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();
    return [...this.#runtimes.values()].filter((r) => r.profile.customerKey === customerKey)
      .map((r) => {
        const c = r.connection;
        return {
          profile_id: r.profile.id,
          name: r.profile.name,
          port: r.profile.port,
          listening: r.listening,
          masters: c
            ? [{
              address: c.address,
              port: c.port,
              since: new Date(c.since).toISOString(),
              started: c.session.started,
              frames_sent: c.session.framesSent,
              frames_received: c.session.framesReceived,
            }]
            : [],
          frames_sent: r.framesSent + (c?.session.framesSent ?? 0),
          frames_received: r.framesReceived + (c?.session.framesReceived ?? 0),
          last_error: r.lastError,
          last_error_at: iso(r.lastErrorAt),
        };
      });
  }

  /** A node's grid state changed (monitoring.nodeStateChanged, LV): M_SP_TB_1 of its points. */
  nodeStateChanged(customerKey: string, nodeId: string, state: string, at: number): void {
    this.#states.get(customerKey)?.set(nodeId, state);
    for (const rt of this.#runtimes.values()) {
      if (rt.profile.customerKey !== customerKey || !rt.table) continue;
      this.#spontaneous(rt, TYPE.M_SP_TB_1, rt.table.nodeStateValues(nodeId, state, at));
    }
  }

  /** New values were committed: M_ME_TF_1 for every float point with a newer 20-s value. */
  valuesCommitted(): void {
    const now = this.#now();
    for (const rt of this.#runtimes.values()) {
      if (!rt.table || !rt.connection) continue;
      this.#spontaneous(rt, TYPE.M_ME_TF_1, rt.table.newValues(this.deps, now));
    }
  }

  #spontaneous(rt: Runtime, type: number, values: PointValue[]): void {
    const c = rt.connection;
    if (!c || !values.length) return;
    // Corked: the frames of one batch leave in as few TCP writes as the window allows.
    c.socket.cork();
    for (const asdu of monitoringAsdus(type, COT.SPONTANEOUS, rt.profile.asdu, values)) {
      c.session.queue(asdu);
    }
    process.nextTick(() => c.socket.uncork());
  }

  #tick(): void {
    const now = this.#now();
    for (const rt of this.#runtimes.values()) {
      rt.connection?.session.tick();
      if (!rt.listening && !rt.server && now >= rt.retryAt && rt.retryAt > 0) {
        rt.retryAt = 0;
        this.#listen(rt);
      }
    }
    if (now - this.#lastConnectivity >= CONNECTIVITY_MS) {
      this.#lastConnectivity = now;
      this.#checkConnectivity(now);
    }
    if (now - this.#lastGrid >= RETRY_MS) {
      this.#lastGrid = now;
      for (const rt of this.#runtimes.values()) void this.#refreshTable(rt);
    }
  }

  /** M_SP_TB_1 for every CELL_CONNECTED point whose cell connected or went silent. */
  #checkConnectivity(now: number): void {
    for (const rt of this.#runtimes.values()) {
      if (!rt.table) continue;
      this.#spontaneous(rt, TYPE.M_SP_TB_1, rt.table.connectivityChanges(this.deps, now));
    }
  }

  async #refreshTable(rt: Runtime): Promise<void> {
    try {
      const grid = await this.deps.grid(rt.profile.customerKey);
      const table = new PointTable(rt.profile.points, grid, rt.profile.deadbands);
      if (rt.table) table.inherit(rt.table);
      else table.prime(this.deps, this.#now(), this.#states.get(rt.profile.customerKey));
      if (this.#runtimes.get(rt.profile.id) === rt) rt.table = table;
    } catch (error) {
      this.deps.logger.error("SCADA point table refresh failed", { error });
    }
  }

  async #open(profile: RunningProfile): Promise<void> {
    const rt = new Runtime(profile);
    this.#runtimes.set(profile.id, rt);
    const customer = profile.customerKey;
    if (!this.#states.has(customer)) {
      this.#states.set(customer, await this.deps.nodeStates(customer).catch(() => new Map()));
    }
    await this.#refreshTable(rt);
    await this.#listen(rt);
  }

  #listen(rt: Runtime): Promise<void> {
    const { profile } = rt;
    const server = net.createServer({ noDelay: true }, (socket) => this.#accept(rt, socket));
    rt.server = server;
    return new Promise((resolve) => {
      const failed = (error: Error) => {
        rt.listening = false;
        rt.server = null;
        rt.lastError = `Cannot listen on port ${profile.port}: ${
          (error as NodeJS.ErrnoException).code ?? error.message
        }`;
        rt.lastErrorAt = this.#now();
        rt.retryAt = this.#now() + RETRY_MS;
        this.deps.logger.warn("SCADA profile cannot listen", { profile: profile.id, error });
        this.#publish(rt, "LISTEN_FAILED", String(profile.port), rt.lastError);
        server.close();
        resolve();
      };
      server.once("error", failed);
      server.listen({ port: profile.port, host: this.deps.host ?? "0.0.0.0" }, () => {
        server.off("error", failed);
        server.on("error", (error) => {
          rt.lastError = error.message;
          rt.lastErrorAt = this.#now();
        });
        rt.listening = true;
        resolve();
      });
    });
  }

  #accept(rt: Runtime, socket: net.Socket): void {
    const address = normalizeAddress(socket.remoteAddress);
    socket.on("error", () => undefined);
    if (this.#closed || address !== normalizeAddress(rt.profile.ipAddress)) {
      rt.lastError = `Connection from ${address} refused (not the profile's master)`;
      rt.lastErrorAt = this.#now();
      socket.destroy();
      return;
    }
    const previous = rt.connection;
    if (previous) {
      previous.reason = "taken over by a new connection of the master";
      previous.session.close(previous.reason);
    }
    const timers = rt.timers;
    const connection: Connection = {
      socket,
      address,
      port: socket.remotePort ?? 0,
      since: this.#now(),
      reason: "",
      session: null as unknown as Iec104Session,
    };
    connection.session = new Iec104Session(timers, {
      send: (bytes) => {
        if (!socket.destroyed) socket.write(bytes);
      },
      close: (reason) => {
        connection.reason ||= reason;
        socket.destroy();
      },
      asdu: (bytes) => {
        const result = answer(
          bytes,
          rt.profile.asdu,
          () =>
            rt.table?.snapshot(this.deps, this.#now(), this.#states.get(rt.profile.customerKey)) ??
              { floats: [], singles: [] },
        );
        if (result.kind === "close") {
          rt.lastError = `Master ${address}: ${result.reason}`;
          rt.lastErrorAt = this.#now();
          connection.session.close(result.reason);
          return;
        }
        if (result.clock !== undefined) rt.clockOffsetMs = result.clock - this.#now();
        socket.cork();
        for (const asdu of result.asdus) connection.session.queue(asdu);
        process.nextTick(() => socket.uncork());
      },
    }, this.#now);
    rt.connection = connection;
    // A copy: a Buffer's slices are views of memory Node may reuse.
    socket.on("data", (chunk: Uint8Array) => {
      socket.cork(); // the frames an acknowledgement releases leave in one write
      connection.session.receive(new Uint8Array(chunk));
      socket.uncork();
    });
    socket.on("close", () => {
      connection.session.close("connection closed");
      rt.framesSent += connection.session.framesSent;
      rt.framesReceived += connection.session.framesReceived;
      if (connection.reason && connection.reason !== "connection closed") {
        rt.lastError = `Master ${address}: ${connection.reason}`;
        rt.lastErrorAt = this.#now();
      }
      if (rt.connection === connection) rt.connection = null;
      if (!this.#closed) this.#publish(rt, "DISCONNECTED", address, connection.reason);
    });
    connection.session.queue(endOfInitialisation(rt.profile.asdu));
    this.#publish(rt, "CONNECTED", address, "");
  }

  #publish(rt: Runtime, state: ScadaConnectionChanged["state"], address: string, reason: string) {
    try {
      this.deps.publish({
        customerKey: rt.profile.customerKey,
        profileId: rt.profile.id,
        profileName: rt.profile.name,
        state,
        address,
        reason,
        at: new Date(this.#now()).toISOString(),
      });
    } catch (error) {
      this.deps.logger.error("SCADA event failed", { error });
    }
  }

  async #stop(profileId: string): Promise<void> {
    const rt = this.#runtimes.get(profileId);
    if (!rt) return;
    this.#runtimes.delete(profileId);
    const c = rt.connection;
    if (c) {
      c.reason = "profile changed or stopped";
      c.session.close(c.reason);
      c.socket.destroy();
    }
    const server = rt.server;
    rt.server = null;
    rt.listening = false;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
