import assert from "node:assert/strict";
import { Hono } from "hono";
import { clientAddress, plausibleAddress } from "./client_address.ts";

function addressOf(
  init: { headers?: Record<string, string>; peer?: string },
  trustProxy: boolean,
): Promise<string | null> {
  const app = new Hono().get("/", (c) => c.json({ address: clientAddress(c, { trustProxy }) }));
  const env = init.peer
    ? { remoteAddr: { hostname: init.peer, port: 40000, transport: "tcp" } }
    : undefined;
  return Promise.resolve(app.request("/", { headers: init.headers ?? {} }, env))
    .then((res) => res.json()).then((body) => body.address);
}

Deno.test("clientAddress() is the connection's peer address when no proxy is trusted", async () => {
  assert.equal(await addressOf({ peer: "198.51.100.7" }, false), "198.51.100.7");
  assert.equal(
    await addressOf({ peer: "198.51.100.7", headers: { "x-forwarded-for": "10.9.9.9" } }, false),
    "198.51.100.7",
    "a client cannot pick its address with X-Forwarded-For",
  );
});

Deno.test("clientAddress() takes the proxy's (last) X-Forwarded-For entry when the proxy is trusted", async () => {
  const headers = { "x-forwarded-for": "10.9.9.9, 203.0.113.4" };
  assert.equal(await addressOf({ peer: "127.0.0.1", headers }, true), "203.0.113.4");
  assert.equal(await addressOf({ peer: "127.0.0.1" }, true), "127.0.0.1", "header missing");
});

Deno.test("clientAddress() answers null when the address is unknown or malformed", async () => {
  assert.equal(await addressOf({}, false), null, "app.request without a connection");
  assert.equal(await addressOf({ headers: { "x-forwarded-for": "<script>" } }, true), null);
});

Deno.test("plausibleAddress() accepts IPv4 and IPv6 literals and nothing else", () => {
  assert.equal(plausibleAddress("192.0.2.1"), "192.0.2.1");
  assert.equal(plausibleAddress("192.0.2.1:5555"), "192.0.2.1");
  assert.equal(plausibleAddress("[2001:DB8::1]:443"), "2001:db8::1");
  assert.equal(plausibleAddress("::ffff:192.0.2.1"), "::ffff:192.0.2.1");
  assert.equal(plausibleAddress("fe80::1%eth0"), "fe80::1%eth0");
  for (const bad of ["", "unknown", "a".repeat(80), "evil.example", "1.2.3.4\u0000"]) {
    assert.equal(plausibleAddress(bad), null, bad);
  }
});
