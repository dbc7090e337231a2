/**
 * Producers: integration events of the other modules become notifications (spec 3 types and
 * severities) for every user of the customer who holds a role for the type's app and enabled
 * it in user_metadata.notification.apps (what each event announces: announcements.ts); they
 * are pushed live over STOMP and, when the user
 * wants e-mails and the address is validated, mailed. Node state changes are coalesced per
 * customer: the changes of one grid evaluation (arriving within `coalesceMs`) make one
 * notification with number_of_alarms. Payloads: docs/contracts.md#events.
 */
import type { CustomTriggerFired, NodeStateChanged } from "../monitoring/mod.ts";
import type { CellsToConfigure, MappingValidated } from "../grid/mod.ts";
import type { IoStateChanged } from "../io_monitoring/mod.ts";
import type { LoginLocked } from "../identity/mod.ts";
import type { ReportFinished } from "../power_quality/mod.ts";
import type { ExportEnded } from "../export/mod.ts";
import type { ScadaConnectionChanged } from "../scada/mod.ts";
import { type EventBus, holdsKey, type Logger } from "../../kernel/mod.ts";
import type { CurrentUserDto, EmailValidationRequested } from "../users/mod.ts";
import type { RecordingFinished } from "../voltage_events/mod.ts";
import { notificationMail, validationMail } from "./mail_texts.ts";
import type { Mailer } from "./mailer.ts";
import { APP_OF_TYPE } from "./contract.ts";
import {
  type Announcement,
  coalesceNodeChanges,
  exportAnnouncement,
  ioAnnouncement,
  lockoutAnnouncement,
  recordingAnnouncement,
  reportAnnouncement,
  scadaAnnouncement,
} from "./announcements.ts";
import type { NotificationsService } from "./service.ts";
import type { NotificationHub } from "./stomp_hub.ts";

export { APP_OF_TYPE };

/** The channels a user enabled for one app (user_metadata.notification, docs/contracts.md). */
export function channelsFor(
  userMetadata: Record<string, unknown>,
  appKey: string,
): { web: boolean; email: boolean } {
  const notification = userMetadata.notification as
    | { apps?: Record<string, unknown>; email?: unknown }
    | undefined;
  const value = notification?.apps?.[appKey];
  const emailOn = notification?.email === true;
  if (value === true) return { web: true, email: emailOn };
  if (typeof value === "object" && value !== null) {
    const v = value as { web?: unknown; email?: unknown };
    return { web: v.web === true, email: emailOn && v.email === true };
  }
  return { web: false, email: false };
}

/** True when the user's e-mail address is validated (current-user DTO); absent reads as not. */
export function emailValidated(user: CurrentUserDto): boolean {
  return user.email_validated === true;
}

/** What the producers read about users (a slice of UsersService). */
export interface UserDirectory {
  listOfCustomer(customerKey: string): Promise<CurrentUserDto[]>;
  getById(id: string): Promise<{ name: string } | null>;
}

/** Dependencies of {@link startProducers}. */
export interface ProducerDeps {
  bus: EventBus;
  users: UserDirectory;
  service: NotificationsService;
  hub: Pick<NotificationHub, "publish">;
  mailer: Mailer;
  logger: Logger;
  /** Window in which node state changes of one customer are coalesced (default 2000 ms). */
  coalesceMs?: number;
}

/** The running producers: `announce` fans out one notification; `stop` flushes and unsubscribes. */
export interface Producers {
  announce(a: Announcement): Promise<number>;
  stop(): Promise<void>;
}

/** Subscribes the producers to the event bus. */
export function startProducers(deps: ProducerDeps): Producers {
  const { bus, users, service, hub, mailer, logger } = deps;
  const coalesceMs = deps.coalesceMs ?? 2000;
  const pending = new Map<
    string,
    { changes: NodeStateChanged[]; timer: ReturnType<typeof setTimeout> }
  >();
  const running = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    running.add(p);
    p.finally(() => running.delete(p)).catch(() => {});
    return p;
  };

  /** Stores, pushes and mails one announcement; returns the number of notifications stored. */
  async function announce(a: Announcement): Promise<number> {
    const appKey = APP_OF_TYPE[a.type];
    const everyone = await users.listOfCustomer(a.customerKey);
    const { audience } = a;
    const recipients = audience
      ? everyone.filter(audience).map((u) => ({ user: u, channels: { web: true, email: false } }))
      : everyone.filter((u) => holdsKey(u.apps_roles, appKey))
        .map((u) => ({ user: u, channels: channelsFor(u.user_metadata, appKey) }));
    const created = await service.createMany(
      recipients.filter((r) => r.channels.web).map((r) => ({
        userId: r.user.user_id,
        customerKey: a.customerKey,
        type: a.type,
        name: a.name,
        severity: a.severity,
        info: a.info,
        productId: a.productId ?? null,
      })),
    );
    for (const { userId, notification } of created) hub.publish(userId, [notification]);
    for (const { user } of recipients.filter((r) => r.channels.email && emailValidated(r.user))) {
      const mail = notificationMail(user.language, a);
      await mailer.send({
        customerKey: a.customerKey,
        userId: user.user_id,
        to: user.email,
        subject: mail.subject,
        text: mail.text,
        kind: "NOTIFICATION",
      }).catch((error) =>
        logger.error("Notification mail failed", { error, userId: user.user_id })
      );
    }
    return created.length;
  }

  const flush = (customerKey: string) => {
    const entry = pending.get(customerKey);
    if (!entry) return Promise.resolve();
    pending.delete(customerKey);
    clearTimeout(entry.timer);
    const announcement = coalesceNodeChanges(customerKey, entry.changes);
    return track(
      announcement
        ? announce(announcement).catch((error) =>
          logger.error("Grid monitoring notification failed", { error })
        )
        : Promise.resolve(),
    );
  };

  const unsubscribe = [
    // payload: docs/contracts.md#events
    bus.subscribe("monitoring.nodeStateChanged", (change) => {
      const entry = pending.get(change.customerKey);
      if (entry) entry.changes.push(change);
      else {
        const timer = setTimeout(() => void flush(change.customerKey), coalesceMs);
        pending.set(change.customerKey, { changes: [change], timer });
      }
    }),
    bus.subscribe("monitoring.customTriggerFired", async (e: CustomTriggerFired) => {
      await announce({
        customerKey: e.customerKey,
        type: "GRID_MONITORING",
        name: "AUTOMATIC_REQUEST_TRIGGER",
        severity: e.status === "FAILURE" ? "WARNING" : "INFO",
        info: {
          status: e.status,
          node_id: e.nodeId,
          node_name: e.nodeName,
          ew_name: e.electricalWorkName,
          start_time: e.at,
        },
      });
    }),
    bus.subscribe("grid.cellsToConfigure", async (e: CellsToConfigure) => {
      await announce({
        customerKey: e.customerKey,
        type: "SETUP_INFORMATION",
        name: "CELLS_TO_CONFIGURE",
        severity: "INFO",
        info: { number_of_alarms: e.count, state: e.reason },
      });
    }),
    bus.subscribe("grid.mappingValidated", async (e: MappingValidated) => {
      await announce({
        customerKey: e.customerKey,
        type: "SETUP_INFORMATION",
        name: "MAPPING_VALIDATED",
        severity: e.verdict === "CORRECT" ? "INFO" : "WARNING",
        info: { ew_name: e.ewName, node_name: e.nodeName, status: e.verdict },
        productId: e.cellId,
      });
    }),
    bus.subscribe("io.stateChanged", async (e: IoStateChanged) => {
      await announce(ioAnnouncement(e));
    }),
    bus.subscribe("pq.reportFinished", async (e: ReportFinished) => {
      if (e.state !== "CANCELLED") await announce(reportAnnouncement(e));
    }),
    bus.subscribe("voltageEvents.recordingFinished", async (e: RecordingFinished) => {
      await announce(recordingAnnouncement(e));
    }),
    bus.subscribe("export.ended", async (e: ExportEnded) => {
      await announce(exportAnnouncement(e));
    }),
    bus.subscribe("scada.connectionChanged", async (e: ScadaConnectionChanged) => {
      await announce(scadaAnnouncement(e));
    }),
    bus.subscribe("identity.loginLocked", async (e: LoginLocked) => {
      await announce(lockoutAnnouncement(e));
    }),
    bus.subscribe("users.emailValidationRequested", async (e: EmailValidationRequested) => {
      const user = await users.getById(e.userId);
      const mail = validationMail(e.language, user?.name ?? e.email, e.link);
      await mailer.send({
        customerKey: e.customerKey,
        userId: e.userId,
        to: e.email,
        subject: mail.subject,
        text: mail.text,
        kind: "EMAIL_VALIDATION",
      });
    }),
  ];

  return {
    announce,
    async stop() {
      for (const off of unsubscribe) off();
      await Promise.all([...pending.keys()].map(flush));
      await Promise.all([...running]);
    },
  };
}
