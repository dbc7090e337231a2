/**
 * Issue 12, points 3 and 6-8, as an attacker sees them over real HTTP: NUL bytes, oversized and
 * broken bodies, a forged Host and oversized headers get clear 4xx answers with the security
 * headers, nothing is stored, and the process answers the next request as before.
 */
import assert from "node:assert/strict";
import { DEMO_USERS } from "../../modules/demo/mod.ts";
import { startTestPlatform, TEST_BASE_URL } from "../helpers/platform.ts";

const ADMIN = DEMO_USERS[1];

Deno.test({
  name: "hostile input over HTTP: 4xx with a catalogue key, never 500, nothing stored",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const platform = await startTestPlatform("pglite");
    const server = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen: () => {} },
      platform.app.fetch,
    );
    const base = `http://127.0.0.1:${server.addr.port}`;
    try {
      const token = (await platform.login(ADMIN.email, ADMIN.password)).access_token;
      const auth = { authorization: `Bearer ${token}` };
      const call = async (path: string, init: RequestInit = {}) => {
        const res = await fetch(`${base}${path}`, init);
        const text = await res.text();
        let body: { key?: string; params?: { issues?: { path: string; key: string }[] } } = {};
        try {
          body = JSON.parse(text);
        } catch { /* an HTML page */ }
        return { status: res.status, body, text, headers: res.headers };
      };
      const groups = async () =>
        (await call("/gsm/grid-structure/hv-mv-station-groups", { headers: auth })).text;
      const before = await groups();

      await t.step(
        "a NUL in a path id, a search term, a JSON string, the login e-mail",
        async () => {
          const path = await call("/gsm/nodes/abc%00def", { headers: auth });
          assert.equal(path.status, 404);
          assert.equal(path.body.key, "common.notFound");
          const search = await call("/usm/users?search=ad%00min", { headers: auth });
          assert.equal(search.status, 400);
          assert.deepEqual(search.body.params?.issues, [
            { path: "search", key: "validation.invalidCharacters", params: {} },
          ]);
          const json = await call("/gsm/hv-mv-station-groups", {
            method: "POST",
            headers: { ...auth, "content-type": "application/json" },
            body: JSON.stringify({ name: "North\u0000" }),
          });
          assert.equal(json.status, 400);
          assert.equal(json.body.params?.issues?.[0]?.key, "validation.invalidCharacters");
          const login = await call("/oidc/interaction/abc/login", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: "email=admin%00%40demo-ew.ch&password=x",
          });
          assert.equal(login.status, 400);
          assert.equal(login.body.params?.issues?.[0]?.path, "email");
        },
      );

      await t.step(
        "invalid UTF-8 and lone surrogates are refused, not stored as U+FFFD",
        async () => {
          const bytes = new TextEncoder().encode('{"name":"North \u00e9"}');
          const broken = bytes.slice();
          broken[broken.indexOf(0xc3)] = 0xff;
          for (const body of [broken, '{"name":"North \\ud800"}']) {
            const res = await call("/gsm/hv-mv-station-groups", {
              method: "POST",
              headers: { ...auth, "content-type": "application/json" },
              body,
            });
            assert.equal(res.status, 400);
            assert.equal(res.body.params?.issues?.[0]?.key, "validation.invalidCharacters");
          }
        },
      );

      await t.step("bodies are limited before they are read: /oidc, the JSON routes", async () => {
        const token20 = await call("/oidc/token", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new Uint8Array(20 << 20),
        });
        assert.equal(token20.status, 413);
        assert.equal(token20.body.key, "common.payloadTooLarge");
        const json40 = await call("/csm/customers", {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: `{"name":"${"x".repeat(40_000_000)}"}`,
        });
        assert.equal(json40.status, 413);
        const loginForm = await call("/oidc/interaction/abc/login", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: `email=a%40b.ch&password=${"p".repeat(17 * 1024)}`,
        });
        assert.equal(loginForm.status, 413);
        assert.ok(loginForm.headers.get("content-security-policy"));
      });

      await t.step("the discovery document names PUBLIC_URL whatever the Host says", async () => {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
        await conn.write(new TextEncoder().encode(
          "GET /oidc/.well-known/openid-configuration HTTP/1.1\r\nHost: evil.example\r\n" +
            "X-Forwarded-Host: evil.example\r\nConnection: close\r\n\r\n",
        ));
        const text = await new Response(conn.readable).text();
        assert.match(text, /^HTTP\/1.1 200/);
        assert.doesNotMatch(text, /evil\.example/);
        assert.match(text, new RegExp(`"token_endpoint":"${TEST_BASE_URL}/oidc/token"`));
      });

      await t.step("a header block over 32 KiB gets 431 with the security headers", async () => {
        const res = await call("/health", { headers: { "x-filler": "a".repeat(40 * 1024) } });
        assert.equal(res.status, 431);
        assert.equal(res.body.key, "common.headersTooLarge");
        assert.equal(res.headers.get("x-frame-options"), "DENY");
      });

      await t.step("nothing was stored and the server answers as before", async () => {
        assert.equal(await groups(), before);
        assert.equal((await call("/health")).status, 200);
      });
    } finally {
      await server.shutdown();
      await platform.close();
    }
  },
});
