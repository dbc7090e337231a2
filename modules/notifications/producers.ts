/**
 * Producers: integration events of the other modules become notifications (spec 3 types and
 * severities) for every user of the customer who holds a role for the type's app and enabled
 * it in user_metadata.notification.apps; they are pushed live over STOMP and, when the user
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
import { type EventBus, holdsKey, isAppAdmin, type Logger } from "../../kernel/mod.ts";
import type { CurrentUserDto, EmailValidationRequested } from "../users/mod.ts";
import type { RecordingFinished } from "../voltage_events/mod.ts";
import { notificationMail, validationMail } from "./mail_texts.ts";
import type { Mailer } from "./mailer.ts";
import {
  APP_OF_TYPE,
  type NotificationInfo,
  type NotificationType,
  type Severity,
} from "./contract.ts";
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

/** One notification to fan out to the users of a customer. */
export interface Announcement {
  customerKey: string;
  type: NotificationType;
  name: string;
  severity: Severity;
  info: NotificationInfo;
  productId?: string | null;
  /**
   * Security notices: these users get it in the notification centre whatever their settings
   * (no e-mail), instead of the type's app holders who turned it on.
   */
  audience?: (user: CurrentUserDto) => boolean;
}

/**
 * A login lockout (identity.loginLocked) for the user-management administrators of the
 * locked user's customer, the user excepted. The spec's types have none for security: it is a
 * SETUP_INFORMATION (the administrative type) named LOGIN_LOCKED with state LOCKED, the
 * account's e-mail as status, the lockout's minutes as counter and its start as start_time.
 */
export function lockoutAnnouncement(e: LoginLocked): Announcement {
  return {
    customerKey: e.customerKey,
    type: "SETUP_INFORMATION",
    name: "LOGIN_LOCKED",
    severity: "WARNING",
    info: {
      state: "LOCKED",
      status: e.email,
      counter: Math.max(1, Math.round((Date.parse(e.until) - Date.parse(e.at)) / 60_000)),
      start_time: e.at,
    },
    audience: (user) => user.user_id !== e.userId && isAppAdmin(user.apps_roles, "hes:um"),
  };
}

const ALARM_SEVERITY: Record<string, Severity> = {
  INTERRUPTION: "CRITICAL",
  NO_DATA: "WARNING",
  OVERCURRENT: "WARNING",
  OVERVOLTAGE: "WARNING",
  UNDERVOLTAGE: "WARNING",
};
/** Worst first, to name the state of a coalesced notification. */
const STATE_ORDER = ["INTERRUPTION", "NO_DATA", "OVERCURRENT", "OVERVOLTAGE", "UNDERVOLTAGE"];

/** Turns the node state changes of one evaluation into one announcement (or none). */
export function coalesceNodeChanges(
  customerKey: string,
  changes: readonly NodeStateChanged[],
): Announcement | null {
  const alarms = changes.filter((c) => c.to !== "OK" && c.suppressedBy === null);
  const cleared = changes.filter((c) => c.to === "OK");
  const first = alarms[0] ?? cleared[0];
  if (!first) return null;
  if (alarms.length > 0) {
    const worst = STATE_ORDER.find((s) => alarms.some((a) => a.to === s)) ?? alarms[0]!.to;
    return {
      customerKey,
      type: "GRID_MONITORING",
      name: "NODE_STATE_CHANGED",
      severity: ALARM_SEVERITY[worst] ?? "WARNING",
      info: {
        number_of_alarms: alarms.length,
        state: worst,
        node_id: first.nodeId,
        node_name: first.nodeName,
        ew_name: first.electricalWorkName,
        start_time: first.at,
      },
    };
  }
  return {
    customerKey,
    type: "GRID_MONITORING",
    name: "NODE_STATE_CHANGED",
    severity: "INFO",
    info: {
      number_of_alarms: 0,
      counter: cleared.length,
      state: "OK",
      node_id: first.nodeId,
      node_name: first.nodeName,
      ew_name: first.electricalWorkName,
      start_time: first.at,
    },
  };
}

/**
 * A digital state change of an I/O channel (io.stateChanged) as an IO_MONITORING notification:
 * WARNING when a digital input becomes active (e.g. a door opens), else INFO; `state` ON/OFF,
 * `status` the module name, `counter` the channel.
 */
export function ioAnnouncement(e: IoStateChanged): Announcement {
  return {
    customerKey: e.customerKey,
    type: "IO_MONITORING",
    name: "IO_STATE_CHANGED",
    severity: e.moduleType === "DIGITAL_INPUT" && e.value === 1 ? "WARNING" : "INFO",
    info: {
      ew_name: e.electricalWorkName,
      ew_key: e.electricalWorkKey,
      node_id: e.nodeId,
      node_name: e.nodeName,
      start_time: e.at,
      state: e.value === 1 ? "ON" : "OFF",
      status: e.moduleName,
      counter: e.channel,
    },
    productId: e.cellId,
  };
}

/**
 * The end of a power-quality report (pq.reportFinished) as a POWER_QUALITY notification:
 * state DONE (ready for download, INFO) or FAILED (WARNING), the result or the failure's key as
 * status, the report's key and name so that the bell opens it.
 */
export function reportAnnouncement(e: ReportFinished): Announcement {
  return {
    customerKey: e.customerKey,
    type: "POWER_QUALITY",
    name: "PQ_REPORT",
    severity: e.state === "DONE" ? "INFO" : "WARNING",
    info: {
      state: e.state,
      status: e.status,
      ew_name: e.electricalWorkName,
      node_name: e.nodeName,
      node_id: e.nodeId,
      start_time: e.start,
      report_key: e.reportKey,
      report_name: e.reportName,
    },
  };
}

/**
 * The end of an event recording's download (voltageEvents.recordingFinished) as a POWER_QUALITY
 * notification named EVENT_DOWNLOAD for the user who asked for it: state DONE (INFO) or FAILED
 * (WARNING) with the catalogue code as `counter`; `start_time` is the event's start.
 */
export function recordingAnnouncement(e: RecordingFinished): Announcement {
  return {
    customerKey: e.customerKey,
    type: "POWER_QUALITY",
    name: "EVENT_DOWNLOAD",
    severity: e.status === "DOWNLOADED" ? "INFO" : "WARNING",
    info: {
      ew_name: e.ewName,
      node_name: e.nodeName,
      start_time: e.eventStart,
      state: e.status === "DOWNLOADED" ? "DONE" : "FAILED",
      status: e.eventKey,
      ...(e.code === null ? {} : { counter: e.code }),
    },
    productId: e.cellId,
    audience: (user) => user.user_id === e.userId,
  };
}

/**
 * The end of an export (export.ended) as a DATA_EXPORT notification for the user who started
 * it, whatever their settings (they asked for the file): `state` DONE reads as ready to
 * download, anything else as failed (spec 2.7); `status` the file name.
 */
export function exportAnnouncement(e: ExportEnded): Announcement {
  return {
    customerKey: e.customerKey,
    type: "DATA_EXPORT",
    name: "DATA_EXPORT",
    severity: e.state === "DONE" ? "INFO" : "WARNING",
    info: { state: e.state, status: e.fileName, start_time: e.at },
    audience: (user) => user.user_id === e.userId,
  };
}

/**
 * A SCADA master connected or disconnected, or a profile could not listen
 * (scada.connectionChanged), as a CONNECTOR_SCADA notification: `state` the change, `status`
 * the master's address (or the port that failed), `node_name` the profile's name.
 */
export function scadaAnnouncement(e: ScadaConnectionChanged): Announcement {
  return {
    customerKey: e.customerKey,
    type: "CONNECTOR_SCADA",
    name: "SCADA_CONNECTION",
    severity: e.state === "CONNECTED"
      ? "INFO"
      : e.state === "DISCONNECTED"
      ? "WARNING"
      : "CRITICAL",
    info: { state: e.state, status: e.address, node_name: e.profileName, start_time: e.at },
  };
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
