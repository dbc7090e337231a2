/**
 * What each integration event announces: the notification (spec 3 types and severities) the
 * producers (producers.ts) fan out to the users of its customer. Pure: one event in, one
 * announcement out (node state changes: the changes of one evaluation, coalesced).
 */
import type { NodeStateChanged } from "../monitoring/mod.ts";
import type { IoStateChanged } from "../io_monitoring/mod.ts";
import type { LoginLocked } from "../identity/mod.ts";
import type { ReportFinished } from "../power_quality/mod.ts";
import type { ExportEnded } from "../export/mod.ts";
import type { ScadaConnectionChanged } from "../scada/mod.ts";
import { isAppAdmin } from "../../kernel/mod.ts";
import type { CurrentUserDto } from "../users/mod.ts";
import type { RecordingFinished } from "../voltage_events/mod.ts";
import type { NotificationInfo, NotificationType, Severity } from "./contract.ts";

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
