import assert from "node:assert/strict";
import { createLogger, EventBus, openMigratedDatabase } from "../../kernel/mod.ts";
import type { NodeStateChanged } from "../monitoring/mod.ts";
import type { CurrentUserDto } from "../users/mod.ts";
import type { Mailer, MailMessage } from "./mailer.ts";
import { notificationLine } from "./mail_texts.ts";
import { channelsFor, startProducers } from "./producers.ts";
import {
  coalesceNodeChanges,
  ioAnnouncement,
  lockoutAnnouncement,
  reportAnnouncement,
  scadaAnnouncement,
} from "./announcements.ts";
import { type NotificationDto, NotificationsService } from "./service.ts";

const logger = createLogger("error");

function user(id: string, appsRoles: string[], notification: unknown, extra = {}): CurrentUserDto {
  return {
    user_id: id,
    name: `User ${id}`,
    email: `${id}@demo-ew.ch`,
    phone: null,
    role: "user",
    start_page: null,
    language: "fr",
    apps_roles: appsRoles,
    customer_key: "c1",
    user_metadata: { notification },
    app_metadata: {},
    latest_login: null,
    email_validated: false,
    kiosk: false,
    ...extra,
  } as CurrentUserDto;
}

const change = (
  node: string,
  to: NodeStateChanged["to"],
  suppressedBy: string | null = null,
): NodeStateChanged => ({
  customerKey: "c1",
  nodeId: node,
  nodeName: `Node ${node}`,
  electricalWorkName: `EW ${node}`,
  level: "LV",
  from: "OK",
  to,
  suppressedBy,
  at: "2026-01-01T10:00:00.000Z",
});

Deno.test("channels: a boolean enables the web, e-mail needs the master switch", () => {
  assert.deepEqual(channelsFor({}, "app:x"), { web: false, email: false });
  assert.deepEqual(channelsFor({ notification: { apps: { "app:x": true } } }, "app:x"), {
    web: true,
    email: false,
  });
  assert.deepEqual(
    channelsFor({ notification: { apps: { "app:x": true }, email: true } }, "app:x"),
    { web: true, email: true },
  );
  assert.deepEqual(
    channelsFor(
      { notification: { apps: { "app:x": { web: false, email: true } }, email: true } },
      "app:x",
    ),
    { web: false, email: true },
  );
  assert.deepEqual(
    channelsFor({ notification: { apps: { "app:x": { web: true, email: true } } } }, "app:x"),
    { web: true, email: false },
  );
});

Deno.test("node state changes of one evaluation coalesce into one notification", () => {
  const alarms = coalesceNodeChanges("c1", [
    change("a", "UNDERVOLTAGE"),
    change("b", "INTERRUPTION"),
    change("c", "NO_DATA", "b"),
    change("d", "OK"),
  ]);
  assert.equal(alarms?.severity, "CRITICAL");
  assert.equal(alarms?.info.number_of_alarms, 2, "the suppressed change is no alarm");
  assert.equal(alarms?.info.state, "INTERRUPTION");
  assert.equal(alarms?.info.node_name, "Node a");
  assert.equal(alarms?.info.node_id, "a", "the bell opens the node");
  const warning = coalesceNodeChanges("c1", [change("a", "OVERVOLTAGE")]);
  assert.equal(warning?.severity, "WARNING");
  const cleared = coalesceNodeChanges("c1", [change("a", "OK"), change("b", "OK")]);
  assert.equal(cleared?.severity, "INFO");
  assert.equal(cleared?.info.counter, 2);
  assert.equal(coalesceNodeChanges("c1", [change("a", "NO_DATA", "x")]), null);
});

Deno.test({
  name: "events become notifications for users who hold the app and enabled it, live and by mail",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { database } = await openMigratedDatabase({ dataDir: ":memory:" });
    try {
      const service = new NotificationsService(database.db);
      const bus = new EventBus(logger);
      const users = [
        // Holds the app and enabled it, e-mail validated and wanted.
        user("u1", ["app:grid-monitoring:user", "hes:infrastructure-setup:admin"], {
          apps: {
            "app:grid-monitoring": true,
            "hes:infrastructure-setup": { web: true, email: true },
          },
          email: true,
        }, { email_validated: true }),
        // Enabled, wants e-mail, but the address is not validated.
        user("u2", ["app:grid-monitoring:user", "hes:infrastructure-setup:user"], {
          apps: { "hes:infrastructure-setup": { web: true, email: true } },
          email: true,
        }),
        // Enabled the app in its settings but holds no role for it.
        user("u3", ["app:grid-monitoring:user"], {
          apps: { "hes:infrastructure-setup": true },
        }),
        // Holds the role, enabled nothing.
        user("u4", ["hes:infrastructure-setup:user"], { apps: {} }),
      ];
      const pushed: { userId: string; list: readonly NotificationDto[] }[] = [];
      const mails: MailMessage[] = [];
      const mailer: Mailer = {
        delivery: "outbox",
        send: (m) => {
          mails.push(m);
          return Promise.resolve();
        },
        close() {},
      };
      const producers = startProducers({
        bus,
        users: {
          listOfCustomer: (key) => Promise.resolve(key === "c1" ? users : []),
          getById: (id) => Promise.resolve(users.find((u) => u.user_id === id) ?? null),
        },
        service,
        hub: { publish: (userId, list) => void pushed.push({ userId, list }) },
        mailer,
        logger,
        coalesceMs: 50,
      });

      await bus.publish("grid.cellsToConfigure", {
        customerKey: "c1",
        cellIds: ["x", "y", "z"],
        count: 3,
        reason: "DELETED_PARENT",
      });
      assert.deepEqual(pushed.map((p) => p.userId).sort(), ["u1", "u2"]);
      assert.equal(pushed[0]?.list[0]?.type, "SETUP_INFORMATION");
      assert.deepEqual(JSON.parse(pushed[0]!.list[0]!.info), {
        number_of_alarms: 3,
        state: "DELETED_PARENT",
      });
      assert.deepEqual(mails.map((m) => m.to), ["u1@demo-ew.ch"], "only the validated address");
      assert.equal(mails[0]?.subject, "Notification GridWatch : Configuration de l'infrastructure");
      assert.match(mails[0]!.text, /3 cellules attendent leur configuration/);

      await bus.publish("grid.mappingValidated", {
        customerKey: "c1",
        cellId: "cell-9",
        nodeName: "N9",
        ewName: "EW9",
        verdict: "SHIFT_RIGHT",
        certainty: "CERTAIN",
      });
      const mapping = pushed.at(-1)!.list[0]!;
      assert.equal(mapping.severity, "WARNING");
      assert.equal(mapping.gridwatch_id, "cell-9");

      // Three changes of one evaluation -> one notification for the one user who enabled it.
      pushed.length = 0;
      for (
        const c of [change("a", "UNDERVOLTAGE"), change("b", "OVERCURRENT"), change("c", "OK")]
      ) {
        await bus.publish("monitoring.nodeStateChanged", c);
      }
      assert.equal(pushed.length, 0, "coalesced, not yet sent");
      await new Promise((r) => setTimeout(r, 120));
      assert.equal(pushed.length, 1);
      assert.equal(pushed[0]?.userId, "u1");
      assert.equal(JSON.parse(pushed[0]!.list[0]!.info).number_of_alarms, 2);

      await bus.publish("monitoring.customTriggerFired", {
        customerKey: "c1",
        triggerId: "t",
        nodeId: "a",
        nodeName: "Node a",
        electricalWorkName: "EW a",
        feederId: "f",
        phase: "L1",
        level: "LV",
        changeA: 60,
        deltaA: 50,
        status: "FAILURE",
        code: 331,
        requestId: null,
        at: "2026-01-01T10:00:00.000Z",
      });
      assert.equal(pushed.at(-1)?.list[0]?.name, "AUTOMATIC_REQUEST_TRIGGER");
      assert.equal(JSON.parse(pushed.at(-1)!.list[0]!.info).status, "FAILURE");

      mails.length = 0;
      await bus.publish("users.emailValidationRequested", {
        customerKey: "c1",
        userId: "u2",
        email: "new@demo-ew.ch",
        language: "de",
        link: "http://gw.test/usm/validate?token=abc",
      });
      assert.equal(mails[0]?.to, "new@demo-ew.ch");
      assert.equal(mails[0]?.kind, "EMAIL_VALIDATION");
      assert.match(mails[0]!.text, /Guten Tag User u2/);
      assert.match(mails[0]!.text, /token=abc/);

      assert.equal((await service.list({ userId: "u4", customerKey: "c1" }, "u4", 0, 10)).total, 0);
      assert.equal((await service.list({ userId: "u1", customerKey: "c1" }, "u1", 0, 10)).total, 4);
      await producers.stop();
    } finally {
      await database.close();
    }
  },
});

Deno.test("an I/O state change becomes an IO_MONITORING notification with its node, channel and state", () => {
  const e = {
    customerKey: "c1",
    cellId: "cell-1",
    nodeId: "n1",
    nodeName: "TS Seeblick",
    electricalWorkKey: "ew-1",
    electricalWorkName: "TS Seeblick",
    slot: 1,
    moduleName: "Station door",
    moduleType: "DIGITAL_INPUT" as const,
    channel: 1,
    value: 1 as const,
    previous: 0 as const,
    at: "2026-11-22T09:00:00.000Z",
  };
  const opened = ioAnnouncement(e);
  assert.deepEqual(opened, {
    customerKey: "c1",
    type: "IO_MONITORING",
    name: "IO_STATE_CHANGED",
    severity: "WARNING",
    info: {
      ew_name: "TS Seeblick",
      ew_key: "ew-1",
      node_id: "n1",
      node_name: "TS Seeblick",
      start_time: "2026-11-22T09:00:00.000Z",
      state: "ON",
      status: "Station door",
      counter: 1,
    },
    productId: "cell-1",
  });
  const closed = ioAnnouncement({ ...e, value: 0, previous: 1 });
  assert.deepEqual([closed.severity, closed.info.state], ["INFO", "OFF"]);
  const relay = ioAnnouncement({
    ...e,
    moduleType: "DIGITAL_OUTPUT",
    moduleName: "Boiler release",
  });
  assert.equal(relay.severity, "INFO");
  assert.equal(
    notificationLine("en", opened),
    "Station door channel 1 at TS Seeblick is on",
  );
  assert.equal(notificationLine("de", closed), "Station door Kanal 1 bei TS Seeblick ist aus");
});

Deno.test("a login lockout is a SETUP_INFORMATION warning for the user-management admins but the user", () => {
  const a = lockoutAnnouncement({
    customerKey: "c1",
    userId: "locked",
    email: "locked@demo-ew.ch",
    at: "2026-01-01T10:00:00.000Z",
    until: "2026-01-01T10:15:00.000Z",
    address: "198.51.100.7",
  });
  assert.equal(a.type, "SETUP_INFORMATION");
  assert.equal(a.name, "LOGIN_LOCKED");
  assert.equal(a.severity, "WARNING");
  assert.deepEqual(a.info, {
    state: "LOCKED",
    status: "locked@demo-ew.ch",
    counter: 15,
    start_time: "2026-01-01T10:00:00.000Z",
  });
  const admins = [
    user("um-admin", ["hes:um:admin"], {}),
    user("um-user", ["hes:um:user", "hes:infrastructure-setup:admin"], {}),
    user("grid-admin", ["app:grid-monitoring:admin"], {}),
    user("locked", ["hes:um:admin"], {}),
  ].filter(a.audience!).map((u) => u.user_id);
  assert.deepEqual(admins, ["um-admin"]);
});

Deno.test("reportAnnouncement() reads a finished report as POWER_QUALITY: DONE as INFO, failed as WARNING", () => {
  const e = {
    customerKey: "c1",
    reportKey: "r1",
    reportName: "Week 46",
    nodeId: "n1",
    nodeName: "TS Seeblick",
    electricalWorkName: "TS Seeblick",
    state: "DONE" as const,
    status: "NOT_PASSED",
    start: "2026-11-09T00:00:00.000Z",
    at: "2026-11-16T00:02:10.000Z",
  };
  const done = reportAnnouncement(e);
  assert.equal(done.type, "POWER_QUALITY");
  assert.equal(done.severity, "INFO");
  assert.deepEqual(done.info, {
    state: "DONE",
    status: "NOT_PASSED",
    ew_name: "TS Seeblick",
    node_name: "TS Seeblick",
    node_id: "n1",
    start_time: "2026-11-09T00:00:00.000Z",
    report_key: "r1",
    report_name: "Week 46",
  });
  const failed = reportAnnouncement({ ...e, state: "FAILED", status: "pq.dataNotAvailable" });
  assert.equal(failed.severity, "WARNING");
  assert.equal(failed.info.state, "FAILED");
});

Deno.test("scadaAnnouncement() turns a master's connection into a CONNECTOR_SCADA notification", () => {
  const e = {
    customerKey: "demo-ew",
    profileId: "p1",
    profileName: "Control centre",
    state: "DISCONNECTED" as const,
    address: "10.0.0.5",
    reason: "t1 expired: no TESTFR con",
    at: "2026-11-25T10:00:00.000Z",
  };
  const a = scadaAnnouncement(e);
  assert.equal(a.type, "CONNECTOR_SCADA");
  assert.equal(a.name, "SCADA_CONNECTION");
  assert.equal(a.severity, "WARNING");
  assert.deepEqual(a.info, {
    state: "DISCONNECTED",
    status: "10.0.0.5",
    node_name: "Control centre",
    start_time: e.at,
  });
  assert.equal(scadaAnnouncement({ ...e, state: "CONNECTED" }).severity, "INFO");
  assert.equal(scadaAnnouncement({ ...e, state: "LISTEN_FAILED" }).severity, "CRITICAL");
});
