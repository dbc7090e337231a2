/** Forwards /oidc requests from the public server to the provider's loopback port. */
import { Hono } from "hono";
import { type AppEnv, clientAddress, type ClientAddressOptions } from "../../kernel/mod.ts";

/**
 * The header that carries the client's address to the provider on its loopback port (login
 * throttling and logs). Whatever the client sends under this name is replaced.
 */
export const CLIENT_ADDRESS_HEADER = "x-gridwatch-client-address";

const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "content-encoding",
  "content-length",
];

/**
 * Routes mounted at the root that proxy every /oidc/* request. The provider builds its
 * discovery document, redirects and issuer from the forwarded host and scheme: those are
 * PUBLIC_URL's, never the request's Host (a forged Host would otherwise name its own endpoints).
 * The client's address goes along in {@link CLIENT_ADDRESS_HEADER} (login throttling, logs).
 */
export function oidcProxyRoutes(
  port: number,
  publicUrl: string,
  addressOptions: ClientAddressOptions = { trustProxy: false },
): Hono<AppEnv> {
  const origin = new URL(publicUrl);
  return new Hono<AppEnv>().all("/oidc/*", async (c) => {
    const url = new URL(c.req.url);
    const headers = new Headers(c.req.raw.headers);
    headers.delete("forwarded");
    headers.set("host", origin.host);
    headers.set("x-forwarded-host", origin.host);
    headers.set("x-forwarded-proto", origin.protocol.replace(":", ""));
    headers.delete(CLIENT_ADDRESS_HEADER);
    const address = clientAddress(c, addressOptions);
    if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
    const hasBody = !["GET", "HEAD"].includes(c.req.method);
    const upstream = await fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, {
      method: c.req.method,
      headers,
      body: hasBody ? await c.req.raw.arrayBuffer() : undefined,
      redirect: "manual",
    });
    const out = new Headers();
    upstream.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.includes(name) && name !== "set-cookie") out.set(name, value);
    });
    for (const cookie of upstream.headers.getSetCookie()) out.append("set-cookie", cookie);
    return new Response(upstream.body, { status: upstream.status, headers: out });
  });
}
