/**
 * STOMP over WebSocket at /nsm/websocket with @stomp/stompjs as the client (the web app's
 * library) against the real server on a random port: authentication failure, per-user
 * isolation, heart-beat negotiation, live delivery of produced notifications, DISCONNECT.
 */
import assert from "node:assert/strict";
import { Client, type IFrame, type IMessage } from "@stomp/stompjs";
import { sql } from "drizzle-orm";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import { notificationDestination, type NotificationDto } from "../../modules/notifications/mod.ts";
import { decodeClaims, startTestPlatform } from "../helpers/platform.ts";

const [USER, ADMIN] = DEMO_USERS;
const userIdOf = (token: string) => String(decodeClaims(token).sub).split("|")[1]!;

/** A stompjs client with the web app's settings; resolves once CONNECTED or on an ERROR frame. */
function open(url: string, token: string | null) {
  const errors: IFrame[] = [];
  const debug: string[] = [];
  const messages: NotificationDto[][] = [];
  let connectedFrame: IFrame | null = null;
  const client = new Client({
    brokerURL: url,
    connectHeaders: token ? { Authorization: `Bearer ${token}` } : {},
    reconnectDelay: 0,
    heartbeatIncoming: 25000,
    heartbeatOutgoing: 25000,
    debug: (line) => debug.push(line),
  });
  const ready = new Promise<void>((resolve) => {
    client.onConnect = (frame) => {
      connectedFrame = frame;
      resolve();
    };
    client.onStompError = (frame) => {
      errors.push(frame);
      resolve();
    };
    client.onWebSocketClose = () => resolve();
  });
  client.activate();
  const subscribe = (destination: string) =>
    client.subscribe(destination, (m: IMessage) => messages.push(JSON.parse(m.body)));
  return {
    client,
    ready,
    errors,
    debug,
    messages,
    subscribe,
    connected: () => connectedFrame,
  };
}

const until = async (what: string, check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

Deno.test({
  name: "STOMP at /nsm/websocket with @stomp/stompjs",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const platform = await startTestPlatform("pglite");
    const server = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen: () => {} },
      platform.app.fetch,
    );
    const url = `ws://127.0.0.1:${server.addr.port}/nsm/websocket`;
    const hub = platform.services.notifications.hub;
    try {
      const user = (await platform.login(USER.email, USER.password)).access_token;
      const admin = (await platform.login(ADMIN.email, ADMIN.password)).access_token;
      const other = (await platform.login(OTHER_ADMIN.email, OTHER_ADMIN.password)).access_token;
      await platform.services.db.execute(sql`
        UPDATE users.users SET user_metadata = jsonb_set(user_metadata, '{notification}',
          '{"apps": {"app:grid-monitoring": true, "hes:infrastructure-setup": true}, "email": false}')`);
      const [demo] = await (await platform.request("/csm/customers", { token: admin })).json() as {
        key: string;
      }[];

      await t.step("a plain GET without upgrade answers 400", async () => {
        const res = await fetch(`http://127.0.0.1:${server.addr.port}/nsm/websocket`);
        assert.equal(res.status, 400);
        assert.equal((await res.json() as { key: string }).key, "common.badRequest");
      });

      await t.step("a missing or invalid token gets an ERROR frame", async () => {
        for (const token of [null, "not-a-token", `${user.slice(0, -4)}AAAA`]) {
          const c = open(url, token);
          await c.ready;
          assert.equal(c.connected(), null);
          assert.equal(c.errors.length, 1, String(token));
          assert.match(c.errors[0]!.headers.message!, /^Unauthorized/);
          await c.client.deactivate();
        }
        assert.equal(hub.size(), 0);
      });

      await t.step("the subprotocol v12.stomp is echoed and heart-beats negotiated", async () => {
        const c = open(url, user);
        await c.ready;
        assert.equal((c.client.webSocket as WebSocket | undefined)?.protocol, "v12.stomp");
        assert.equal(c.client.connectedVersion, "1.2");
        assert.equal(c.connected()?.headers["heart-beat"], "25000,25000");
        assert.ok(c.debug.includes("send PING every 25000ms"), c.debug.join("\n"));
        assert.ok(c.debug.includes("check PONG every 25000ms"), c.debug.join("\n"));
        await c.client.deactivate();
        await until("the session to end", () => hub.size() === 0);
      });

      await t.step(
        "an offer without spaces is accepted; a foreign subprotocol is refused",
        async () => {
          const handshake = async (offer: string) => {
            const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
            await conn.write(new TextEncoder().encode(
              "GET /nsm/websocket HTTP/1.1\r\nHost: gw.test\r\nUpgrade: websocket\r\n" +
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
                `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: ${offer}\r\n\r\n`,
            ));
            const buf = new Uint8Array(4096);
            const n = await conn.read(buf);
            conn.close();
            return new TextDecoder().decode(buf.subarray(0, n ?? 0));
          };
          const accepted = await handshake("v12.stomp,v11.stomp");
          assert.match(accepted, /^HTTP\/1.1 101/);
          assert.match(accepted, /sec-websocket-protocol: v12.stomp\r\n/i);
          const refused = await handshake("mqtt");
          assert.match(refused, /^HTTP\/1.1 400/);
          assert.match(refused, /unsupportedSubprotocol/);
          await until("the sessions to end", () => hub.size() === 0);
        },
      );

      await t.step("a frame beyond 64 KiB in one message gets an ERROR and the close", async () => {
        const ws = new WebSocket(url, ["v12.stomp"]);
        const received: string[] = [];
        const closed = new Promise<number>((resolve) => ws.onclose = (e) => resolve(e.code));
        ws.onmessage = (e) => received.push(String(e.data));
        await new Promise((resolve) => ws.onopen = resolve);
        ws.send(
          `CONNECT\naccept-version:1.2\nAuthorization:Bearer ${user}\nx:${
            "a".repeat(8 << 20)
          }\n\n\0`,
        );
        assert.equal(await closed, 1008);
        assert.match(received.join(""), /^ERROR\n[^]*Frame larger than 65536 bytes/);
        assert.equal(hub.size(), 0);
      });

      await t.step("subscribing to another user's destination is refused", async () => {
        const c = open(url, user);
        await c.ready;
        const errorFrame = new Promise<IFrame>((resolve) => (c.client.onStompError = resolve));
        c.subscribe(notificationDestination(userIdOf(admin)));
        const error = await errorFrame;
        assert.match(error.headers.message!, /Forbidden destination/);
        await until("the connection to close", () => !c.client.connected);
        await c.client.deactivate();
      });

      await t.step("produced notifications arrive live, only at their owner", async () => {
        const mine = open(url, user);
        const theirs = open(url, other);
        const adminSession = open(url, admin);
        await Promise.all([mine.ready, theirs.ready, adminSession.ready]);
        mine.subscribe(notificationDestination(userIdOf(user)));
        theirs.subscribe(notificationDestination(userIdOf(other)));
        adminSession.subscribe(notificationDestination(userIdOf(admin)));
        await until("three subscriptions", () => hub.size() === 3);
        // A SUBSCRIBE is asynchronous: a receipt-less wait for the server to register it.
        await new Promise((r) => setTimeout(r, 100));

        await platform.services.bus.publish("monitoring.customTriggerFired", {
          customerKey: demo!.key,
          triggerId: "t1",
          nodeId: "n1",
          nodeName: "Node 1",
          electricalWorkName: "EW 1",
          feederId: "f1",
          phase: "L1",
          level: "LV",
          changeA: 80,
          deltaA: 50,
          status: "FAILURE",
          code: 331,
          requestId: null,
          at: new Date().toISOString(),
        });
        await platform.services.bus.publish("grid.cellsToConfigure", {
          customerKey: demo!.key,
          cellIds: [],
          count: 2,
          reason: "DELETED_PARENT",
        });
        await until("the user's message", () => mine.messages.length === 1);
        await until("the admin's messages", () => adminSession.messages.length === 2);
        const [list] = mine.messages;
        assert.equal(list?.length, 1);
        assert.equal(list![0]!.name, "AUTOMATIC_REQUEST_TRIGGER");
        assert.equal(JSON.parse(list![0]!.info).status, "FAILURE");
        const rest = await platform.request(
          `/nsm/notifications/users/${userIdOf(user)}`,
          { token: user },
        );
        const page = await rest.json() as { notifications: NotificationDto[] };
        assert.equal(page.notifications[0]?.key, list![0]!.key, "the same key as over REST");
        assert.equal(adminSession.messages[1]?.[0]?.type, "SETUP_INFORMATION");
        await new Promise((r) => setTimeout(r, 200));
        assert.equal(theirs.messages.length, 0, "another customer's user receives nothing");
        assert.equal(mine.messages.length, 1, "the user holds no infrastructure-setup role");

        await Promise.all([mine, theirs, adminSession].map((c) => c.client.deactivate()));
        await until("every session to end", () => hub.size() === 0);
      });
    } finally {
      await server.shutdown();
      await platform.close();
    }
  },
});
