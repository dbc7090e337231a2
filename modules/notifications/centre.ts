/**
 * Assembles the notification centre for main.ts: service, live hub, mailer, producers and the
 * routes at /nsm (the STOMP websocket authenticates in its CONNECT frame, so it is public; the
 * REST calls are behind authentication).
 */
import type { Hono } from "hono";
import { z } from "zod";
import {
  type AppEnv,
  type Db,
  type EventBus,
  type Logger,
  type PlatformModule,
  type TenantDirectory,
  type TokenVerifier,
  validate,
} from "../../kernel/mod.ts";
import { createMailer, type Mailer } from "./mailer.ts";
import { type Producers, startProducers, type UserDirectory } from "./producers.ts";
import { notificationRoutes } from "./routes.ts";
import { NotificationsService } from "./service.ts";
import { NotificationHub } from "./stomp_hub.ts";
import { stompRoutes } from "./stomp_socket.ts";

/** What the notification centre needs from the composition root. */
export interface NotificationCentreDeps {
  db: Db;
  bus: EventBus;
  users: UserDirectory;
  verifier: TokenVerifier;
  /** The customers (a STOMP session of an unknown customer is refused). */
  tenants: TenantDirectory;
  logger: Logger;
  /** SMTP server URL (smtp://user:pass@host:port); unset keeps mails in the outbox. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Heart-beat offered by the STOMP endpoint in ms (default 25000). */
  heartbeatMs?: number;
  /** Window coalescing the node state changes of one evaluation (default 2000 ms). */
  coalesceMs?: number;
  /**
   * Mounts POST /nsm/e2e/cells-to-configure and POST /nsm/e2e/node-state-changed, which publish
   * a grid.cellsToConfigure or a monitoring.nodeStateChanged event for the caller's customer.
   * Only for end-to-end tests (E2E_HOOKS=true); never in production.
   */
  e2eHooks?: boolean;
}

/** The running notification centre. */
export interface NotificationCentre extends PlatformModule {
  service: NotificationsService;
  hub: NotificationHub;
  mailer: Mailer;
  producers: Producers;
  close(): Promise<void>;
}

const hookBody = z.strictObject({ count: z.number().int().min(1).max(1000).default(1) });
const nodeHookBody = z.strictObject({
  node_id: z.string().min(1).max(100),
  node_name: z.string().min(1).max(100),
  ew_name: z.string().min(1).max(100),
  state: z.enum(["UNDERVOLTAGE", "OVERVOLTAGE", "OVERCURRENT", "NO_DATA", "INTERRUPTION"]),
});

/** Starts the producers and builds the /nsm routes. */
export function notificationsModule(deps: NotificationCentreDeps): NotificationCentre {
  const logger = deps.logger.child({ module: "notifications" });
  const service = new NotificationsService(deps.db);
  const hub = new NotificationHub();
  const mailer = createMailer({ smtpUrl: deps.smtpUrl, from: deps.mailFrom, service, logger });
  const producers = startProducers({
    bus: deps.bus,
    users: deps.users,
    service,
    hub,
    mailer,
    logger,
    ...(deps.coalesceMs !== undefined ? { coalesceMs: deps.coalesceMs } : {}),
  });
  const websocket = stompRoutes(hub, {
    verifier: deps.verifier,
    tenants: deps.tenants,
    logger,
    ...(deps.heartbeatMs !== undefined ? { heartbeatMs: deps.heartbeatMs } : {}),
  });
  // A user disabled, deleted or demoted loses their live sessions at once; the client
  // reconnects, and its token is checked again (docs/operations.md, "Revocation").
  const stopClosing = deps.bus.subscribe("users.accessChanged", (change) => {
    if (change.state === "active" && !change.revoked && !change.narrowed) return;
    const message = change.state === "active" && !change.revoked
      ? "Access changed: reconnect"
      : "Unauthorized: access revoked";
    const closed = hub.closeUser(change.userId, message);
    if (closed) logger.info("STOMP sessions closed", { userId: change.userId, closed, message });
  });
  const routes: Hono<AppEnv> = notificationRoutes(service);
  if (deps.e2eHooks) {
    routes.post("/e2e/cells-to-configure", validate("json", hookBody), async (c) => {
      const { count } = c.req.valid("json");
      await deps.bus.publish("grid.cellsToConfigure", {
        customerKey: c.get("tenant").key,
        cellIds: [],
        count,
        reason: "NEW_STOCK",
      });
      return c.json({ published: true }, 202);
    });
    routes.post("/e2e/node-state-changed", validate("json", nodeHookBody), async (c) => {
      const body = c.req.valid("json");
      await deps.bus.publish("monitoring.nodeStateChanged", {
        customerKey: c.get("tenant").key,
        nodeId: body.node_id,
        nodeName: body.node_name,
        electricalWorkName: body.ew_name,
        level: "LV",
        from: "OK",
        to: body.state,
        suppressedBy: null,
        at: new Date().toISOString(),
      });
      return c.json({ published: true }, 202);
    });
  }
  return {
    name: "notifications",
    public: [{ prefix: "/nsm", routes: websocket }],
    api: [{ prefix: "/nsm", routes }],
    service,
    hub,
    mailer,
    producers,
    async close() {
      stopClosing();
      hub.closeAll();
      await producers.stop();
      mailer.close();
    },
  };
}
