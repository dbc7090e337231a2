/**
 * The one shape of a module: its `mod.ts` exports a factory that takes the module's
 * dependencies (stores, the event bus, other modules' facades, its config slice) and returns a
 * `PlatformModule`. main.ts builds the list and mounts it; nothing else wires routes.
 */
import type { Hono } from "hono";
import type { AppEnv } from "./http.ts";
import type { BodyLimit } from "./input_gate.ts";

/** A sub-app and the path prefix it is mounted at (one of API_PREFIXES). */
export interface Mount {
  prefix: string;
  routes: Hono<AppEnv>;
}

/** What a module's factory hands to the composition root. */
export interface PlatformModule {
  /** The module's folder name, for logs. */
  name: string;
  /**
   * Routes behind authentication and the tenant middleware: handlers read the caller from
   * `c.get("principal")` and the customer they act on from `c.get("tenant")`.
   */
  api?: Mount[];
  /** Routes without user authentication (the cell protocol, links in e-mails, documents). */
  public?: Mount[];
  /**
   * Paths that take larger bodies than the input gate's default (uploads, the cell protocol);
   * every other body is limited to DEFAULT_BODY_BYTES (kernel/input_gate.ts).
   */
  bodyLimits?: BodyLimit[];
  /** Starts background work (timers, watchers) once every module is assembled and mounted. */
  start?(): void | Promise<void>;
  /** Stops background work; modules are closed in the reverse order of the list. */
  close?(): Promise<void>;
}
