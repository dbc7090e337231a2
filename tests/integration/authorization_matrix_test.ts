/**
 * Authorization matrix generated from the app's own route list: every API route x role x
 * customer id gives the expected status. A route missing from EXPECTED fails the test, so a new
 * route cannot ship without its access rule.
 */
import assert from "node:assert/strict";
import { API_PREFIXES } from "../../main.ts";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import { decodeClaims, startTestPlatform } from "../helpers/platform.ts";

type Caller =
  | "anonymous"
  | "user"
  | "admin"
  | "super-user"
  | "super-admin"
  | "operator"
  | "other-admin";
type Target = "own" | "foreign" | "nonexistent" | "malformed";
type Rule = (caller: Caller, target: Target) => number;

const signedIn = (caller: Caller) => caller !== "anonymous";
const superRole = (caller: Caller) => caller === "super-user" || caller === "super-admin";
/** Holders of app:grid-monitoring:admin (or the super-admin role). */
const monitoringAdmin = (caller: Caller) =>
  caller === "admin" || caller === "super-admin" || caller === "other-admin";
/** Every demo account holds app:grid-monitoring; ids in the matrix name no request or trigger. */
const monitoringRead = (c: Caller) => (signedIn(c) ? 404 : 401);
const monitoringWrite = (c: Caller) => (!signedIn(c) ? 401 : monitoringAdmin(c) ? 404 : 403);
/** A node id that exists nowhere: the node lookup answers 404 to everybody allowed to ask. */
const NO_NODE = "00000000-0000-4000-8000-000000000000";

/** Expected status per route ("METHOD /path" as Hono lists it). */
const EXPECTED: Record<string, Rule> = {
  "GET /csm/customers": (c) => (signedIn(c) ? 200 : 401),
  "GET /csm/customers/:cid": (c, t) => {
    if (!signedIn(c)) return 401;
    if (t === "own") return 200;
    if (t === "foreign" && superRole(c)) return 200;
    return 404;
  },
  "GET /usm/users/current/:id": (c, t) => {
    if (!signedIn(c)) return 401;
    if (t === "own") return 200;
    if (t === "foreign" && superRole(c)) return 200;
    return 404;
  },
  "PATCH /usm/users/current/:id": (c, t) => (!signedIn(c) ? 401 : t === "own" ? 200 : 404),
  "GET /gsm/grid-structure/hv-mv-station-groups": (c) => (signedIn(c) ? 200 : 401),
  "GET /evm/grid-monitoring/grid-status": (c) => (signedIn(c) ? 200 : 401),
  "GET /evm/custom-monitoring/requests": (c) => (signedIn(c) ? 200 : 401),
  "POST /evm/custom-monitoring/requests": monitoringRead,
  "GET /evm/custom-monitoring/requests/:id": monitoringRead,
  "POST /evm/custom-monitoring/requests/:id/stop": monitoringRead,
  "GET /evm/custom-monitoring/requests/:id/values": monitoringRead,
  "GET /evm/custom-monitoring/triggers": (c) => (signedIn(c) ? 200 : 401),
  "POST /evm/custom-monitoring/triggers": monitoringWrite,
  "GET /evm/custom-monitoring/triggers/:id": monitoringRead,
  "PUT /evm/custom-monitoring/triggers/:id": monitoringWrite,
  "DELETE /evm/custom-monitoring/triggers/:id": monitoringWrite,
  // User tokens are not cell credentials: the ingestion protocol refuses every one of them.
  "POST /ingest/v1/batches": () => 401,
};

/** A valid query for routes that need one. */
const QUERIES: Record<string, string> = {
  "GET /evm/grid-monitoring/grid-status": "?level=LV",
};

/** A valid body for routes that need one, so the matrix tests access, not validation. */
const BODIES: Record<string, unknown> = {
  "PATCH /usm/users/current/:id": { language: "en" },
  "POST /ingest/v1/batches": { measurements: [] },
  "POST /evm/custom-monitoring/requests": { node_id: NO_NODE, duration_min: 5 },
  "POST /evm/custom-monitoring/triggers": {
    node_id: NO_NODE,
    delta_lv_a: 50,
    delta_mv_a: 20,
    duration_min: 5,
  },
  "PUT /evm/custom-monitoring/triggers/:id": {
    delta_lv_a: 50,
    delta_mv_a: 20,
    duration_min: 5,
    enabled: true,
  },
};

Deno.test({
  name: "every API route answers the expected status for every role and customer id",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const platform = await startTestPlatform("pglite");
    try {
      const accounts: Record<Exclude<Caller, "anonymous">, { email: string; password: string }> = {
        user: DEMO_USERS[0],
        admin: DEMO_USERS[1],
        "super-user": DEMO_USERS[2],
        "super-admin": DEMO_USERS[3],
        operator: DEMO_USERS[4],
        "other-admin": OTHER_ADMIN,
      };
      const tokens = new Map<Caller, string>();
      for (const [caller, account] of Object.entries(accounts)) {
        tokens.set(
          caller as Caller,
          (await platform.login(account.email, account.password)).access_token,
        );
      }
      const userId = (caller: Caller) =>
        String(decodeClaims(tokens.get(caller)!).sub).split("|")[1]!;
      const customers =
        await (await platform.request("/csm/customers", { token: tokens.get("super-admin")! }))
          .json() as { key: string; auth_connection_name: string }[];
      const customerOf = (name: string) =>
        customers.find((c) => c.auth_connection_name === name)!.key;

      const routes = platform.app.routes
        .filter((r) => r.method !== "ALL" && API_PREFIXES.some((p) => r.path.startsWith(`${p}/`)))
        .map((r) => `${r.method} ${r.path}`);
      const unique = [...new Set(routes)];
      const missing = unique.filter((r) => !(r in EXPECTED));
      assert.deepEqual(missing, [], `Routes without an authorization rule: ${missing.join(", ")}`);

      const failures: string[] = [];
      for (const route of unique) {
        const [method, pattern] = route.split(" ") as [string, string];
        for (const caller of ["anonymous", ...Object.keys(accounts)] as Caller[]) {
          const own = caller === "other-admin" ? "sw-beispiel" : "demo-ew";
          const foreign = own === "demo-ew" ? "sw-beispiel" : "demo-ew";
          const ids: Record<Target, { cid: string; id: string }> = {
            own: {
              cid: customerOf(own),
              id: caller === "anonymous" ? userId("user") : userId(caller),
            },
            foreign: {
              cid: customerOf(foreign),
              id: userId(caller === "other-admin" ? "admin" : "other-admin"),
            },
            nonexistent: { cid: crypto.randomUUID(), id: crypto.randomUUID() },
            malformed: { cid: "%27%3B--", id: "..%2F..%2Fetc%2Fpasswd" },
          };
          for (const target of Object.keys(ids) as Target[]) {
            const path = pattern.replace(":cid", ids[target].cid).replace(":id", ids[target].id) +
              (QUERIES[route] ?? "");
            const token = tokens.get(caller);
            const body = route in BODIES ? JSON.stringify(BODIES[route]) : null;
            const res = await platform.request(path, {
              method,
              body,
              headers: body ? { "content-type": "application/json" } : {},
              ...(token ? { token } : {}),
            });
            const text = await res.text();
            const expected = EXPECTED[route]!(caller, target);
            if (res.status !== expected) {
              failures.push(`${route} ${caller} ${target}: ${res.status} != ${expected}`);
            }
            if (res.status >= 400) {
              assert.ok(!/\bat \w|stack/i.test(text), `No stack trace in ${route}: ${text}`);
              assert.ok(typeof (JSON.parse(text) as { key: string }).key === "string");
            }
          }
        }
      }
      assert.deepEqual(failures, []);
    } finally {
      await platform.close();
    }
  },
});
