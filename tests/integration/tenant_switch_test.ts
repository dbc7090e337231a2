/**
 * One tenant mechanism for every customer-scoped call (kernel/tenant.ts): a super role that
 * names another customer with X-Customer sees and changes that customer's data on every
 * screen's call; anyone else naming a foreign or unknown customer gets 404 on every route.
 * The routes are walked from the app's own route list, so a new module is covered at once.
 */
import assert from "node:assert/strict";
import { API_PREFIXES } from "../../main.ts";
import { DEMO_USERS, OTHER_ADMIN } from "../../modules/demo/mod.ts";
import { decodeClaims, startTestPlatform } from "../helpers/platform.ts";

/**
 * Routes that authenticate something other than a user: cells, mail links, the socket, API
 * clients (external_v1: the customer is in the client's token), signed export file links.
 */
const PUBLIC = [
  /^\/ingest\//,
  /^\/usm\/email-validation\//,
  /^\/nsm\/websocket$/,
  /^\/oidc\//,
  /^\/external\//,
  /^\/dem\/files\//,
];

/** The list calls behind the screens, and what must match between the two ways to reach them. */
const SCREEN_CALLS = [
  "/gsm/grid-structure/hv-mv-station-groups",
  "/gsm/grid-structure/hv-mv-station-groups?view=visual-statistics",
  "/gsm/electrical-works/status",
  "/gsm/map-layers",
  "/gsm/cells?category=IN_STOCK",
  "/gsm/cells?category=WAITING_FOR_INSTALLATION",
  "/gsm/cells?category=INSTALLED",
  "/gsm/io-modules",
  "/evm/custom-monitoring/triggers",
];

Deno.test({
  name: "a super role acts on the customer it names; nobody else can name one",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const platform = await startTestPlatform("pglite");
    try {
      const token = async (account: { email: string; password: string }) =>
        (await platform.login(account.email, account.password)).access_token;
      const superAdmin = await token(DEMO_USERS[3]);
      const superUser = await token(DEMO_USERS[2]);
      const admin = await token(DEMO_USERS[1]);
      const otherAdmin = await token(OTHER_ADMIN);
      const customers = await (await platform.request("/csm/customers", { token: superAdmin }))
        .json() as { key: string; auth_connection_name: string }[];
      const keyOf = (name: string) => customers.find((c) => c.auth_connection_name === name)!.key;
      const demo = keyOf("demo-ew");
      const other = keyOf("sw-beispiel");
      const get = async (path: string, bearer: string, customer?: string) => {
        const res = await platform.request(path, {
          token: bearer,
          headers: customer ? { "X-Customer": customer } : {},
        });
        // The time an answer was made says nothing about whose data it holds.
        const body = JSON.parse(await res.text(), (k, v) => k === "generated_at" ? undefined : v);
        return { status: res.status, body: body as unknown };
      };

      await t.step("every screen's list call shows the other utility to a super role", async () => {
        for (const path of SCREEN_CALLS) {
          const switched = await get(path, superAdmin, other);
          const native = await get(path, otherAdmin);
          assert.equal(switched.status, 200, path);
          assert.deepEqual(switched.body, native.body, path);
          const home = await get(path, superAdmin);
          assert.deepEqual(home.body, (await get(path, admin)).body, `${path} without a pick`);
        }
        // The grid status names the other utility's nodes, not the demo's.
        const nodes = async (bearer: string, customer?: string) => {
          const { body } = await get(
            "/evm/grid-monitoring/grid-status?level=LV&view=summary",
            bearer,
            customer,
          );
          return JSON.stringify(body).match(/"name":"[^"]+"/g)?.sort() ?? [];
        };
        assert.deepEqual(await nodes(superUser, other), await nodes(otherAdmin));
        assert.notDeepEqual(await nodes(superUser, other), await nodes(superUser));
      });

      await t.step("a super role edits the other utility's grid, and only it", async () => {
        const created = await platform.request("/gsm/hv-mv-station-groups", {
          method: "POST",
          token: superAdmin,
          headers: { "X-Customer": other, "content-type": "application/json" },
          body: JSON.stringify({ name: "Switched station" }),
        });
        assert.equal(created.status, 201);
        const { id } = await created.json() as { id: string };
        const structure = (bearer: string, customer?: string) =>
          get("/gsm/grid-structure/hv-mv-station-groups", bearer, customer)
            .then((r) => JSON.stringify(r.body));
        assert.match(await structure(otherAdmin), /Switched station/);
        assert.doesNotMatch(await structure(admin), /Switched station/);
        // Without the pick the same id is foreign: 404, like a missing one.
        const foreign = await platform.request(`/gsm/hv-mv-station-groups/${id}`, {
          method: "DELETE",
          token: superAdmin,
        });
        assert.equal(foreign.status, 404);
        const removed = await platform.request(`/gsm/hv-mv-station-groups/${id}`, {
          method: "DELETE",
          token: superAdmin,
          headers: { "X-Customer": other },
        });
        assert.equal(removed.status, 204);
      });

      await t.step(
        "the caller's own profile and notifications stay with their customer",
        async () => {
          const id = String(decodeClaims(superAdmin).sub).split("|")[1];
          assert.equal((await get(`/usm/users/current/${id}`, superAdmin, other)).status, 200);
          assert.equal(
            (await get(`/nsm/notifications/users/${id}`, superAdmin, other)).status,
            200,
          );
        },
      );

      await t.step("every API route answers 404 to a foreign or unknown pick", async () => {
        const routes = [
          ...new Set(
            platform.app.routes
              .filter((r) => r.method !== "ALL")
              .filter((r) => API_PREFIXES.some((p) => r.path.startsWith(`${p}/`)))
              .filter((r) => !PUBLIC.some((re) => re.test(r.path)))
              .map((r) => `${r.method} ${r.path}`),
          ),
        ];
        assert.ok(routes.length > 80, `only ${routes.length} routes found`);
        const failures: string[] = [];
        for (const route of routes) {
          const [method, pattern] = route.split(" ") as [string, string];
          const path = pattern.replace(/:(\w+)/g, () => crypto.randomUUID());
          const cases: [string, string, string][] = [
            ["admin", admin, other],
            ["other admin", otherAdmin, demo],
            ["admin", admin, crypto.randomUUID()],
            ["super-admin", superAdmin, crypto.randomUUID()],
            ["super-user", superUser, "bad key'; --"],
          ];
          for (const [who, bearer, customer] of cases) {
            const res = await platform.request(path, {
              method,
              token: bearer,
              headers: { "X-Customer": customer, "content-type": "application/json" },
              body: method === "GET" || method === "DELETE" ? null : "{}",
            });
            const body = await res.json() as { key?: string };
            if (res.status !== 404 || body.key !== "common.notFound") {
              failures.push(`${route} as ${who} picking ${customer}: ${res.status}`);
            }
          }
        }
        assert.deepEqual(failures, []);
      });
    } finally {
      await platform.close();
    }
  },
});
