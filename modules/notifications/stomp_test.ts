import assert from "node:assert/strict";
import { AppError, createLogger, type Principal, type TokenVerifier } from "../../kernel/mod.ts";
import type { NotificationDto } from "./service.ts";
import {
  bearerToken,
  MAX_SESSIONS_PER_USER,
  MAX_SUBSCRIPTIONS,
  negotiateHeartBeat,
  notificationDestination,
  parseHeartBeat,
  StompSession,
  tokenExpiry,
} from "./stomp.ts";
import { NotificationHub } from "./stomp_hub.ts";
import { pickSubprotocol } from "./stomp_socket.ts";
import { bodyText, type StompFrame, StompParser } from "./stomp_frame.ts";

const PRINCIPAL: Principal = {
  sub: "gridwatch|u1",
  userId: "u1",
  customer: "demo-ew",
  role: "user",
  appsRoles: [],
  language: "en",
};
/** A JWT-shaped token expiring at `exp` (seconds); the fake verifier accepts it. */
const jwt = (exp: number) => `h.${btoa(JSON.stringify({ exp })).replace(/=+$/, "")}.s`;
const verifier: TokenVerifier = {
  verify: (token) =>
    token === "good" || token.startsWith("h.")
      ? Promise.resolve(PRINCIPAL)
      : Promise.reject(new AppError("common.unauthorized")),
};

function harness(
  opts: { heartbeatMs?: number; customerKey?: string | null; hub?: NotificationHub } = {},
) {
  const sent: (StompFrame | "heartbeat")[] = [];
  const parser = new StompParser({ side: "client" });
  const closed: { code: number; reason: string }[] = [];
  const hub = opts.hub ?? new NotificationHub();
  const session = new StompSession(
    {
      send: (text) => sent.push(...parser.push(text)),
      close: (code, reason) => closed.push({ code, reason }),
    },
    hub,
    {
      verifier,
      tenants: {
        byConnection: (connection) => {
          const key = opts.customerKey === undefined ? "c1" : opts.customerKey;
          return Promise.resolve(key === null ? null : { key, connection, applications: [] });
        },
      },
      logger: createLogger("error"),
      heartbeatMs: opts.heartbeatMs ?? 25_000,
      connectTimeoutMs: 5_000,
    },
  );
  const settle = () => new Promise((r) => setTimeout(r, 10));
  const frames = () => sent.filter((f): f is StompFrame => f !== "heartbeat");
  return { session, hub, sent, frames, closed, settle };
}

const NOTE: NotificationDto = {
  key: "k1",
  name: "CELLS_TO_CONFIGURE",
  type: "SETUP_INFORMATION",
  severity: "INFO",
  is_read: false,
  creation_time: "2026-01-01T00:00:00.000Z",
  info: '{"number_of_alarms":2}',
  gridwatch_id: null,
};

Deno.test("heart-beat negotiation follows STOMP 1.2", () => {
  assert.deepEqual(parseHeartBeat("10000,20000"), [10000, 20000]);
  assert.deepEqual(parseHeartBeat("x"), [0, 0]);
  assert.deepEqual(parseHeartBeat(undefined), [0, 0]);
  assert.deepEqual(negotiateHeartBeat([25000, 25000], 25000), { outgoing: 25000, incoming: 25000 });
  assert.deepEqual(negotiateHeartBeat([10000, 40000], 25000), { outgoing: 40000, incoming: 25000 });
  assert.deepEqual(negotiateHeartBeat([0, 0], 25000), { outgoing: 0, incoming: 0 });
  assert.deepEqual(negotiateHeartBeat([0, 1000], 25000), { outgoing: 25000, incoming: 0 });
});

Deno.test("the token comes from Authorization or passcode", () => {
  assert.equal(bearerToken({ Authorization: "Bearer abc" }), "abc");
  assert.equal(bearerToken({ authorization: "bearer abc" }), "abc");
  assert.equal(bearerToken({ passcode: "abc" }), "abc");
  assert.equal(bearerToken({ passcode: "Bearer abc" }), "abc");
  assert.equal(bearerToken({ Authorization: "Basic abc" }), null);
  assert.equal(bearerToken({}), null);
});

Deno.test("a bad or missing token gets an ERROR frame and the connection is closed", async () => {
  for (const header of ["", "Authorization:Bearer bad\n"]) {
    const h = harness();
    h.session.receive(`CONNECT\naccept-version:1.2\n${header}\n\0`);
    await h.settle();
    assert.equal(h.frames()[0]?.command, "ERROR");
    assert.match(h.frames()[0]!.headers.message!, /^Unauthorized/);
    assert.equal(h.closed.length, 1);
    assert.equal(h.session.connected, false);
  }
});

Deno.test("an unknown customer, a non-1.2 client and a frame before CONNECT are refused", async () => {
  const unknown = harness({ customerKey: null });
  unknown.session.receive("CONNECT\naccept-version:1.2\nAuthorization:Bearer good\n\n\0");
  await unknown.settle();
  assert.equal(unknown.frames()[0]?.command, "ERROR");
  const old = harness();
  old.session.receive("CONNECT\naccept-version:1.0,1.1\npasscode:good\n\n\0");
  await old.settle();
  assert.equal(old.frames()[0]?.headers.version, "1.2");
  assert.equal(old.frames()[0]?.command, "ERROR");
  const early = harness();
  early.session.receive("SUBSCRIBE\nid:0\ndestination:/user/u1/notifications\n\n\0");
  await early.settle();
  assert.equal(early.frames()[0]?.command, "ERROR");
  assert.equal(early.closed.length, 1);
});

Deno.test("subscribes to its own destination only, receives MESSAGE frames, disconnects", async () => {
  const h = harness();
  h.session.receive(
    "CONNECT\naccept-version:1.1,1.2\nheart-beat:0,0\nAuthorization:Bearer good\n\n\0" +
      `SUBSCRIBE\nid:sub-0\ndestination:${notificationDestination("u1")}\nreceipt:r1\n\n\0`,
  );
  await h.settle();
  const [connected, receipt] = h.frames();
  assert.equal(connected?.command, "CONNECTED");
  assert.equal(connected?.headers.version, "1.2");
  assert.equal(connected?.headers["heart-beat"], "25000,25000");
  assert.equal(receipt?.command, "RECEIPT");
  assert.equal(receipt?.headers["receipt-id"], "r1");
  assert.equal(h.hub.size("u1"), 1);

  h.hub.publish("u1", [NOTE]);
  h.hub.publish("someone-else", [NOTE]);
  const messages = h.frames().filter((f) => f.command === "MESSAGE");
  assert.equal(messages.length, 1);
  assert.equal(messages[0]?.headers.subscription, "sub-0");
  assert.equal(messages[0]?.headers.destination, "/user/u1/notifications");
  assert.equal(messages[0]?.headers["content-type"], "application/json");
  assert.deepEqual(JSON.parse(bodyText(messages[0]!)), [NOTE]);

  h.session.receive("DISCONNECT\nreceipt:bye\n\n\0");
  await h.settle();
  assert.equal(h.frames().at(-1)?.headers["receipt-id"], "bye");
  assert.equal(h.closed.length, 1);
  assert.equal(h.hub.size(), 0);
});

Deno.test("subscribing to another user's destination is an ERROR", async () => {
  const h = harness();
  h.session.receive(
    "CONNECT\naccept-version:1.2\nAuthorization:Bearer good\n\n\0" +
      "SUBSCRIBE\nid:0\ndestination:/user/u2/notifications\n\n\0",
  );
  await h.settle();
  assert.equal(h.frames()[1]?.command, "ERROR");
  assert.match(h.frames()[1]!.headers.message!, /Forbidden destination/);
  assert.equal(h.closed.length, 1);
});

Deno.test("sends EOL heart-beats and closes a silent connection after 2.5 intervals", async () => {
  const h = harness({ heartbeatMs: 40 });
  h.session.receive("CONNECT\naccept-version:1.2\nheart-beat:40,40\npasscode:good\n\n\0");
  await new Promise((r) => setTimeout(r, 60));
  assert.ok(h.sent.includes("heartbeat"), "the server sends heart-beats");
  assert.equal(h.closed.length, 0);
  // Keep the connection alive with heart-beats for a while ...
  for (let i = 0; i < 4; i++) {
    h.session.receive("\n");
    await new Promise((r) => setTimeout(r, 40));
  }
  assert.equal(h.closed.length, 0);
  // ... then fall silent.
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(h.closed.length, 1);
  assert.equal(h.closed[0]?.reason, "Heart-beat timeout");
});

Deno.test("a malformed frame gets an ERROR and closes", async () => {
  const h = harness();
  h.session.receive("CONNECT\naccept-version:1.2\npasscode:good\n\n\0SEND\ndestination:x\\q\n\n\0");
  await h.settle();
  assert.equal(h.frames().at(-1)?.command, "ERROR");
  assert.equal(h.closed.length, 1);
});

Deno.test("the session ends when its token expires", async () => {
  assert.equal(tokenExpiry(jwt(1_700_000_000)), 1_700_000_000_000);
  assert.ok(Number.isNaN(tokenExpiry("opaque")));
  const h = harness();
  h.session.receive(
    `CONNECT\naccept-version:1.2\nAuthorization:Bearer ${jwt(Date.now() / 1000 + 0.1)}\n\n\0`,
  );
  await h.settle();
  assert.equal(h.frames()[0]?.command, "CONNECTED");
  assert.equal(h.closed.length, 0);
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(h.closed, [{ code: 4001, reason: "Token expired" }]);
});

Deno.test("the subprotocol offer is read with or without spaces; a foreign one is refused", () => {
  assert.equal(pickSubprotocol("v12.stomp,v11.stomp"), "v12.stomp");
  assert.equal(pickSubprotocol("v10.stomp, v11.stomp , V12.STOMP"), "v12.stomp");
  assert.equal(pickSubprotocol(undefined), null);
  assert.equal(pickSubprotocol(" "), null);
  assert.equal(pickSubprotocol("mqtt,v11.stomp"), undefined);
});

Deno.test("a session holds at most MAX_SUBSCRIPTIONS subscriptions; one more is an ERROR", async () => {
  const h = harness();
  const destination = notificationDestination("u1");
  let frames = "CONNECT\naccept-version:1.2\nAuthorization:Bearer good\n\n\0";
  for (let i = 0; i <= MAX_SUBSCRIPTIONS; i++) {
    frames += `SUBSCRIBE\nid:s${i}\ndestination:${destination}\n\n\0`;
  }
  h.session.receive(frames);
  await h.settle();
  assert.equal(h.session.subscriptions.size, MAX_SUBSCRIPTIONS);
  assert.match(h.frames().at(-1)!.headers.message!, /At most 8 subscriptions/);
  assert.equal(h.closed.length, 1);
  h.hub.publish("u1", [NOTE]);
  assert.equal(h.frames().filter((f) => f.command === "MESSAGE").length, 0);
});

Deno.test("a user holds at most MAX_SESSIONS_PER_USER sessions; the next CONNECT is refused", async () => {
  const hub = new NotificationHub();
  const sessions = Array.from({ length: MAX_SESSIONS_PER_USER + 1 }, () => harness({ hub }));
  for (const h of sessions) {
    h.session.receive("CONNECT\naccept-version:1.2\nAuthorization:Bearer good\n\n\0");
    await h.settle();
  }
  assert.equal(hub.size("u1"), MAX_SESSIONS_PER_USER);
  const last = sessions.at(-1)!;
  assert.equal(last.frames()[0]?.command, "ERROR");
  assert.match(last.frames()[0]!.headers.message!, /At most 16 sessions/);
  hub.closeAll();
});
