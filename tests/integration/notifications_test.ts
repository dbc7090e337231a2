/**
 * The nsm calls of spec 7 through the real login, on PGlite and on PostgreSQL: notifications
 * produced from integration events, paging, mark read and delete (one and all), isolation
 * between users and customers, the outbox, and mail delivery to a real SMTP server process.
 */
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import type {
  NotificationDto,
  NotificationPageDto as NotificationPage,
  OutboxDto,
} from "../../modules/notifications/mod.ts";
import {
  databaseKinds,
  decodeClaims,
  startTestPlatform,
  type TestPlatform,
} from "../helpers/platform.ts";

const [USER, ADMIN] = DEMO_USERS;

/** Enables the given notification settings for every user (as the settings page saves them). */
async function enableNotifications(platform: TestPlatform, notification: unknown) {
  await platform.services.db.execute(sql`
    UPDATE users.users
    SET user_metadata = jsonb_set(user_metadata, '{notification}', ${
    JSON.stringify(notification)
  }::jsonb)`);
}

async function customerKey(platform: TestPlatform, token: string): Promise<string> {
  const [customer] = await (await platform.request("/csm/customers", { token })).json() as {
    key: string;
  }[];
  return customer!.key;
}

const userIdOf = (token: string) => String(decodeClaims(token).sub).split("|")[1]!;

for (const kind of databaseKinds()) {
  Deno.test({
    name: `nsm on ${kind}: produced notifications, paging, actions and isolation`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn(t) {
      const platform = await startTestPlatform(kind);
      try {
        const user = (await platform.login(USER.email, USER.password)).access_token;
        const admin = (await platform.login(ADMIN.email, ADMIN.password)).access_token;
        const other = (await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password)).access_token;
        const [userId, adminId, otherId] = [user, admin, other].map(userIdOf) as [
          string,
          string,
          string,
        ];
        const demoKey = await customerKey(platform, admin);
        const otherKey = await customerKey(platform, other);
        const bus = platform.services.bus;
        const get = async (token: string, id: string, query = "") => {
          const res = await platform.request(`/nsm/notifications/users/${id}${query}`, { token });
          return { status: res.status, body: await res.json() as NotificationPage };
        };
        const call = (token: string | null, method: string, path: string, body?: unknown) =>
          platform.request(path, {
            method,
            ...(token ? { token } : {}),
            ...(body === undefined ? {} : {
              body: JSON.stringify(body),
              headers: { "content-type": "application/json" },
            }),
          });

        await t.step("nothing is produced while notifications are not activated", async () => {
          await bus.publish("grid.cellsToConfigure", {
            customerKey: demoKey,
            cellIds: ["c"],
            count: 1,
            reason: "NEW_STOCK",
          });
          assert.equal((await get(admin, adminId)).body.total, 0);
        });

        await enableNotifications(platform, {
          apps: { "app:grid-monitoring": true, "hes:infrastructure-setup": true },
          email: false,
        });

        await t.step("events become notifications for the users holding the app", async () => {
          for (let i = 1; i <= 23; i++) {
            await bus.publish("grid.cellsToConfigure", {
              customerKey: demoKey,
              cellIds: [],
              count: i,
              reason: "UNLINKED",
            });
          }
          await bus.publish("grid.cellsToConfigure", {
            customerKey: otherKey,
            cellIds: [],
            count: 99,
            reason: "NEW_STOCK",
          });
          await bus.publish("monitoring.customTriggerFired", {
            customerKey: demoKey,
            triggerId: "t1",
            nodeId: "n1",
            nodeName: "Node 1",
            electricalWorkName: "EW 1",
            feederId: "f1",
            phase: "L2",
            level: "LV",
            changeA: 70,
            deltaA: 50,
            status: "STARTED",
            code: null,
            requestId: "r1",
            at: new Date().toISOString(),
          });
          // The user holds app:grid-monitoring but not hes:infrastructure-setup.
          const forUser = await get(user, userId);
          assert.equal(forUser.status, 200);
          assert.equal(forUser.body.total, 1);
          assert.equal(forUser.body.notifications[0]?.name, "AUTOMATIC_REQUEST_TRIGGER");
          assert.equal(forUser.body.notifications[0]?.type, "GRID_MONITORING");
          assert.deepEqual(JSON.parse(forUser.body.notifications[0]!.info).status, "STARTED");
          assert.equal((await get(admin, adminId)).body.total, 24);
          const forOther = await get(other, otherId);
          assert.equal(forOther.body.total, 1);
          assert.equal(JSON.parse(forOther.body.notifications[0]!.info).number_of_alarms, 99);
        });

        await t.step("pages newest first with total and unread counts", async () => {
          const first = await get(admin, adminId, "?page=0&size=10");
          assert.equal(first.status, 200);
          assert.equal(first.body.notifications.length, 10);
          assert.equal(first.body.total, 24);
          assert.equal(first.body.unread, 24);
          assert.equal(first.body.notifications[0]?.name, "AUTOMATIC_REQUEST_TRIGGER");
          assert.equal(JSON.parse(first.body.notifications[1]!.info).number_of_alarms, 23);
          const times = first.body.notifications.map((n) => n.creation_time);
          assert.deepEqual([...times].sort().reverse(), times);
          const third = await get(admin, adminId, "?page=2&size=10");
          assert.equal(third.body.notifications.length, 4);
          const keys = new Set(
            [...first.body.notifications, ...third.body.notifications].map((n) => n.key),
          );
          assert.equal(keys.size, 14, "pages do not overlap");
          for (const query of ["?size=0", "?size=101", "?page=-1", "?page=x"]) {
            assert.equal((await get(admin, adminId, query)).status, 400, query);
          }
        });

        const adminList = (await get(admin, adminId, "?size=100")).body.notifications;
        const userKey = (await get(user, userId)).body.notifications[0]!.key;

        await t.step("another user's or customer's notifications answer 404", async () => {
          const target = adminList[0]!.key;
          const attempts: [string, string, string, unknown?][] = [
            [user, "GET", `/nsm/notifications/users/${adminId}`],
            [user, "PUT", `/nsm/notifications/users/${adminId}`, { is_read: true }],
            [user, "DELETE", `/nsm/notifications/users/${adminId}`],
            [user, "PUT", `/nsm/notifications/${target}`, { is_read: true }],
            [user, "DELETE", `/nsm/notifications/${target}`],
            [other, "GET", `/nsm/notifications/users/${adminId}`],
            [other, "PUT", `/nsm/notifications/${target}`, { is_read: true }],
            [other, "DELETE", `/nsm/notifications/${target}`],
            [admin, "PUT", `/nsm/notifications/${crypto.randomUUID()}`, { is_read: true }],
            [admin, "DELETE", `/nsm/notifications/..%2F..%2Fetc`],
          ];
          for (const [token, method, path, body] of attempts) {
            const res = await call(token, method, path, body);
            assert.equal(res.status, 404, `${method} ${path}`);
            assert.equal((await res.json() as { key: string }).key, "common.notFound");
          }
          const unchanged = await get(admin, adminId);
          assert.equal(unchanged.body.total, 24);
          assert.equal(unchanged.body.unread, 24);
          assert.equal(
            (await call(null, "GET", `/nsm/notifications/users/${adminId}`)).status,
            401,
          );
        });

        await t.step("marks one as read (200) and refuses a malformed body (400)", async () => {
          const key = adminList[3]!.key;
          const res = await call(admin, "PUT", `/nsm/notifications/${key}`, { is_read: true });
          assert.equal(res.status, 200);
          assert.equal((await res.json() as NotificationDto).is_read, true);
          assert.equal((await get(admin, adminId)).body.unread, 23);
          for (const body of [{ is_read: "yes" }, {}, { is_read: true, extra: 1 }]) {
            const bad = await call(admin, "PUT", `/nsm/notifications/${key}`, body);
            assert.equal(bad.status, 400, JSON.stringify(body));
          }
        });

        await t.step("marks all as read, deletes one and all: only the caller's", async () => {
          const all = await call(admin, "PUT", `/nsm/notifications/users/${adminId}`, {
            is_read: true,
          });
          assert.equal(all.status, 200);
          assert.deepEqual(await all.json(), { updated: 23 });
          assert.equal((await get(admin, adminId)).body.unread, 0);
          assert.equal((await get(user, userId)).body.unread, 1, "the user's stay unread");

          const one = await call(admin, "DELETE", `/nsm/notifications/${adminList[0]!.key}`);
          assert.equal(one.status, 200);
          assert.equal((await get(admin, adminId)).body.total, 23);
          const again = await call(admin, "DELETE", `/nsm/notifications/${adminList[0]!.key}`);
          assert.equal(again.status, 404);

          const cleared = await call(admin, "DELETE", `/nsm/notifications/users/${adminId}`);
          assert.equal(cleared.status, 200);
          assert.deepEqual(await cleared.json(), { deleted: 23 });
          assert.equal((await get(admin, adminId)).body.total, 0);
          assert.equal((await get(user, userId)).body.total, 1);
          assert.equal((await get(other, otherId)).body.total, 1);
          const own = await call(user, "DELETE", `/nsm/notifications/${userKey}`);
          assert.equal(own.status, 200);
        });

        await t.step("without SMTP, mails go to the outbox that admins read", async () => {
          await enableNotifications(platform, {
            apps: { "hes:infrastructure-setup": { web: true, email: true } },
            email: true,
          });
          await platform.services.db.execute(sql`
            UPDATE users.users SET user_metadata = user_metadata || '{"email_validated": true}'::jsonb
            WHERE email = ${ADMIN.email}`);
          await bus.publish("grid.cellsToConfigure", {
            customerKey: demoKey,
            cellIds: [],
            count: 4,
            reason: "NEW_STOCK",
          });
          await bus.publish("users.emailValidationRequested", {
            customerKey: demoKey,
            userId,
            email: "new.address@demo-ew.ch",
            language: "fr",
            link: "http://gw.test/usm/email-validation/abc",
          });
          const res = await call(admin, "GET", "/nsm/outbox");
          assert.equal(res.status, 200);
          const mails = await res.json() as OutboxDto[];
          assert.deepEqual(mails.map((m) => [m.kind, m.recipient]).sort(), [
            ["EMAIL_VALIDATION", "new.address@demo-ew.ch"],
            ["NOTIFICATION", ADMIN.email],
          ]);
          const validation = mails.find((m) => m.kind === "EMAIL_VALIDATION")!;
          assert.equal(validation.subject, "GridWatch : confirmez votre adresse e-mail");
          assert.match(validation.body, /Bonjour Ursula User/);
          assert.match(validation.body, /email-validation\/abc/);
          assert.match(
            mails.find((m) => m.kind === "NOTIFICATION")!.body,
            /4 cells are waiting for configuration/,
          );
          assert.equal((await call(user, "GET", "/nsm/outbox")).status, 403);
          const foreign = await call(other, "GET", "/nsm/outbox");
          assert.equal(foreign.status, 200);
          assert.deepEqual(await foreign.json(), [], "another customer's mails stay hidden");
        });
      } finally {
        await platform.close();
      }
    },
  });
}

/** Starts an SMTP server (the smtp-server package) in its own process; mails come as JSON lines. */
async function startSmtpProcess() {
  const script = `
    import { SMTPServer } from "smtp-server";
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        const chunks = [];
        stream.on("data", (c) => chunks.push(c));
        stream.on("end", () => {
          console.log(JSON.stringify({
            from: session.envelope.mailFrom && session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((r) => r.address),
            data: Buffer.concat(chunks).toString("utf8"),
          }));
          callback();
        });
      },
    });
    server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.server.address().port })));
  `;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=js", script],
    cwd: new URL("../../", import.meta.url).pathname,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const next = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const newline = buffer.indexOf("\n");
      if (newline !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        return JSON.parse(line);
      }
      const { value, done } = await lines.read();
      if (done) throw new Error("The SMTP process ended");
      buffer += value;
    }
  };
  const { port } = await next() as { port: number };
  return {
    port,
    nextMail: next as () => Promise<{ from: string; to: string[]; data: string }>,
    async stop() {
      child.kill("SIGTERM");
      await lines.cancel().catch(() => {});
      await child.status;
    },
  };
}

Deno.test({
  name: "with SMTP_URL, mails are delivered to a real SMTP server",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const smtp = await startSmtpProcess();
    const platform = await startTestPlatform("pglite", {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: "GridWatch <alerts@gw.test>",
    });
    try {
      const admin = (await platform.login(ADMIN.email, ADMIN.password)).access_token;
      const demoKey = await customerKey(platform, admin);
      await platform.services.bus.publish("users.emailValidationRequested", {
        customerKey: demoKey,
        userId: userIdOf(admin),
        email: "anna.new@demo-ew.ch",
        language: "uk",
        link: "http://gw.test/usm/email-validation/xyz",
      });
      const mail = await smtp.nextMail();
      assert.equal(mail.from, "alerts@gw.test");
      assert.deepEqual(mail.to, ["anna.new@demo-ew.ch"]);
      assert.match(mail.data, /^Subject: =\?UTF-8\?B\?/m);
      assert.match(mail.data, /^Content-Transfer-Encoding: base64/m);
      const body = new TextDecoder().decode(
        Uint8Array.from(
          atob(mail.data.split("\r\n\r\n")[1]!.replace(/\s/g, "")),
          (c) => c.charCodeAt(0),
        ),
      );
      assert.match(body, /^Вітаємо, Anna Admin!/);
      assert.match(body, /http:\/\/gw\.test\/usm\/email-validation\/xyz/);
      const outbox = await platform.request("/nsm/outbox", { token: admin });
      assert.deepEqual(await outbox.json(), [], "nothing is kept when SMTP delivers");
    } finally {
      await platform.close();
      await smtp.stop();
    }
  },
});
