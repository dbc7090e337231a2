/**
 * Logs in through the embedded provider exactly as the browser does (code flow + PKCE, the
 * real login form), with a tiny cookie jar, and returns the tokens. For integration tests.
 */

/** Tokens returned by the token endpoint. */
export interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  expires_in: number;
}

type Fetch = (input: Request) => Promise<Response>;

function b64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

/** Performs the authorization code flow against `baseUrl` through `fetchFn` (e.g. app.request). */
export async function loginWithPassword(
  fetchFn: Fetch,
  baseUrl: string,
  email: string,
  password: string,
): Promise<Tokens> {
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetchFn(
      new Request(new URL(url, baseUrl), { ...init, headers, redirect: "manual" }),
    );
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  };
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = b64url(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
  );
  const redirectUri = `${baseUrl}/auth/callback`;
  const auth = new URL(`${baseUrl}/oidc/auth`);
  auth.search = new URLSearchParams({
    client_id: "gridwatch-web",
    response_type: "code",
    scope: "openid profile email offline_access",
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    prompt: "login",
    state: "s1",
  }).toString();
  let res = await send(auth.toString());
  let location = res.headers.get("location");
  await res.body?.cancel();
  if (!location) throw new Error(`No redirect from /oidc/auth: ${res.status}`);
  res = await send(location);
  await res.text();
  const form = new URLSearchParams({ email, password, lang: "en" });
  res = await send(`${new URL(location, baseUrl).pathname}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
  // Follow redirects until the provider sends us back to the web app with a code.
  for (let i = 0; i < 6; i++) {
    location = res.headers.get("location");
    await res.body?.cancel();
    if (!location) throw new Error(`Login failed with status ${res.status}`);
    if (location.startsWith(redirectUri)) break;
    res = await send(location);
  }
  const code = new URL(location!).searchParams.get("code");
  if (!code) throw new Error(`No code in ${location}`);
  res = await send(`${baseUrl}/oidc/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      client_id: "gridwatch-web",
      code_verifier: verifier,
    }).toString(),
  });
  if (!res.ok) throw new Error(`Token endpoint: ${res.status} ${await res.text()}`);
  return await res.json() as Tokens;
}
