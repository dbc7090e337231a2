/** Forwards /oidc requests from the public server to the provider's loopback port. */
import { Hono } from "hono";
import type { AppEnv } from "../../kernel/mod.ts";

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
 */
export function oidcProxyRoutes(port: number, publicUrl: string): Hono<AppEnv> {
  const origin = new URL(publicUrl);
  return new Hono<AppEnv>().all("/oidc/*", async (c) => {
    const url = new URL(c.req.url);
    const headers = new Headers(c.req.raw.headers);
    headers.delete("forwarded");
    headers.set("host", origin.host);
    headers.set("x-forwarded-host", origin.host);
    headers.set("x-forwarded-proto", origin.protocol.replace(":", ""));
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
