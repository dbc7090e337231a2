/**
 * An external OpenID provider by configuration: a second platform trusts the first one's issuer
 * (discovery + JWKS over real HTTP), as it would trust Keycloak or Entra ID.
 */
import assert from "node:assert/strict";
import { DEMO_USERS } from "../../modules/demo/mod.ts";
import { startTestPlatform } from "../helpers/platform.ts";
import { loginWithPassword } from "../helpers/oidc_login.ts";

Deno.test({
  name:
    "OIDC_ISSUER makes the platform accept the external issuer's tokens and serve its login config",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close();
    const issuerBase = `http://127.0.0.1:${port}`;
    const idp = await startTestPlatform("pglite", { PUBLIC_URL: issuerBase });
    const server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, idp.app.fetch);
    const platform = await startTestPlatform("pglite", {
      OIDC_ISSUER: `${issuerBase}/oidc`,
      OIDC_CLIENT_ID: "gridwatch-web",
      OIDC_AUDIENCE: "urn:gridwatch:api",
    });
    try {
      const config = await (await platform.request("/config.json")).json() as {
        oidc: { authority: string };
      };
      assert.equal(config.oidc.authority, `${issuerBase}/oidc`);
      const embeddedLogin = await platform.request("/oidc/.well-known/openid-configuration");
      assert.equal(
        embeddedLogin.status,
        404,
        "no embedded provider when an external one is configured",
      );
      await embeddedLogin.body?.cancel();

      const tokens = await loginWithPassword(
        (r) => fetch(r),
        issuerBase,
        DEMO_USERS[1].email,
        DEMO_USERS[1].password,
      );
      const res = await platform.request("/csm/customers", { token: tokens.access_token });
      assert.equal(res.status, 200);
      const list = await res.json() as { auth_connection_name: string }[];
      assert.deepEqual(list.map((c) => c.auth_connection_name), ["demo-ew"]);

      const forged = await platform.request("/csm/customers", { token: tokens.id_token });
      assert.equal(forged.status, 401, "an ID token (audience = client) is not an access token");
      await forged.body?.cancel();
    } finally {
      await platform.close();
      await server.shutdown();
      await idp.close();
    }
  },
});
