import assert from "node:assert/strict";
import { createLogger, type Principal } from "../../kernel/mod.ts";
import { StompSession } from "./stomp.ts";
import { NotificationHub } from "./stomp_hub.ts";
import { type StompFrame, StompParser } from "./stomp_frame.ts";

function connectedSession(hub: NotificationHub, userId: string) {
  const principal: Principal = {
    sub: `gridwatch|${userId}`,
    userId,
    customer: "demo-ew",
    role: "user",
    appsRoles: [],
    language: "en",
  };
  const frames: StompFrame[] = [];
  const closed: { code: number; reason: string }[] = [];
  const parser = new StompParser({ side: "client" });
  const session = new StompSession(
    {
      send: (text) => {
        for (const item of parser.push(text)) if (item !== "heartbeat") frames.push(item);
      },
      close: (code, reason) => closed.push({ code, reason }),
    },
    hub,
    {
      verifier: { verify: () => Promise.resolve(principal) },
      tenants: {
        byConnection: (connection) => Promise.resolve({ key: "c1", connection, applications: [] }),
      },
      logger: createLogger("error"),
      heartbeatMs: 0,
      connectTimeoutMs: 5_000,
    },
  );
  session.receive("CONNECT\naccept-version:1.2\npasscode:good\n\n\0");
  return { session, frames, closed };
}

Deno.test("NotificationHub.closeUser() sends ERROR and closes every session of that user only", async () => {
  const hub = new NotificationHub();
  const first = connectedSession(hub, "u1");
  const second = connectedSession(hub, "u1");
  const other = connectedSession(hub, "u2");
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(hub.size("u1"), 2);

  assert.equal(hub.closeUser("u1", "Unauthorized: access revoked"), 2);
  for (const s of [first, second]) {
    const last = s.frames.at(-1);
    assert.equal(last?.command, "ERROR");
    assert.equal(last?.headers.message, "Unauthorized: access revoked");
    assert.deepEqual(s.closed, [{ code: 1008, reason: "Unauthorized: access revoked" }]);
    assert.equal(s.session.connected, false);
  }
  assert.equal(hub.size("u1"), 0);
  assert.equal(hub.size("u2"), 1);
  assert.equal(other.closed.length, 0);
  assert.equal(hub.closeUser("u1", "again"), 0);
  other.session.close();
});
