/**
 * The embedded OpenID provider (oidc-provider): code flow with PKCE for the web app, JWT
 * access tokens for the API audience, users and password checks through the users module.
 * It listens on a loopback port; the main server proxies /oidc to it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import type { CustomersService } from "../customers/mod.ts";
import type { Db, EventBus, Logger } from "../../kernel/mod.ts";
import type { UsersService } from "../users/mod.ts";
import { createAdapterClass } from "./adapter.ts";
import { API_AUDIENCE, OIDC_PATH, WEB_CLIENT_ID } from "./constants.ts";
import { accessTokenClaims, profileClaims } from "./claims.ts";
import { submitLogin } from "./login_form.ts";
import {
  type Language,
  pickLanguage,
  renderLogin,
  renderLogout,
  renderMessage,
} from "./login_page.ts";
import type { LoginThrottle } from "./login_throttle.ts";
import { CLIENT_ADDRESS_HEADER } from "./proxy.ts";
import type { InstallSecrets } from "./secrets.ts";

const PROFILE_CLAIMS = [
  "name",
  "language",
  "start_page",
  "apps_roles",
  "roles",
  "app_metadata",
  "user_metadata",
];

export interface ProviderDeps {
  publicUrl: string;
  appName: string;
  db: Db;
  secrets: InstallSecrets;
  users: UsersService;
  customers: CustomersService;
  logger: Logger;
  /** Access token lifetime in seconds (the web app warns before it ends). */
  accessTokenTtl?: number;
  /** Failed sign-ins per account and client address (docs/operations.md, "Lockout policy"). */
  throttle: LoginThrottle;
  /** Receives `identity.loginLocked` when an account is locked. */
  bus: EventBus;
}

/** A running provider on its loopback port. */
export interface RunningProvider {
  port: number;
  provider: Provider;
  close(): Promise<void>;
}

/** The 4xx status of an oidc-provider error (`statusCode`), or null. */
function clientErrorStatus(error: unknown): number | null {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === "number" && status >= 400 && status < 500 ? status : null;
}

/** Starts the provider on 127.0.0.1 with an ephemeral port. */
export async function startProvider(deps: ProviderDeps): Promise<RunningProvider> {
  const provider = new Provider(`${deps.publicUrl}${OIDC_PATH}`, configuration(deps));
  provider.proxy = true;
  provider.on(
    "server_error",
    (_ctx: unknown, error: Error) => deps.logger.error("OIDC server error", { error }),
  );
  const callback = provider.callback();
  const server: Server = createServer((req, res) => {
    handle(provider, deps, callback, req, res).catch((error) => {
      // oidc-provider's own errors (an unknown or expired interaction, a bad request) carry a
      // 4xx status: they are the client's, not the server's.
      const status = clientErrorStatus(error) ?? 500;
      if (status === 500) deps.logger.error("OIDC interaction failed", { error });
      else deps.logger.info("OIDC interaction refused", { status, error: String(error) });
      if (!res.headersSent) {
        sendHtml(
          res,
          status,
          renderMessage({
            lang: "en",
            text: "error",
            appName: deps.appName,
            homeUrl: `${deps.publicUrl}/`,
          }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    provider,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // The /oidc proxy keeps connections alive; without this, close waits for their timeout.
        server.closeAllConnections();
      }),
  };
}

function configuration(deps: ProviderDeps): Configuration {
  const { publicUrl } = deps;
  const findUser = async (sub: string) => {
    const id = sub.slice(sub.lastIndexOf("|") + 1);
    const user = await deps.users.getById(id);
    if (!user || user.disabled) return undefined;
    const customer = await deps.customers.getByKey(user.customer_key);
    return customer ? profileClaims(user, customer) : undefined;
  };
  return {
    adapter: createAdapterClass(deps.db),
    clients: [{
      client_id: WEB_CLIENT_ID,
      token_endpoint_auth_method: "none",
      application_type: "web",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      redirect_uris: [`${publicUrl}/auth/callback`],
      post_logout_redirect_uris: [`${publicUrl}/`],
    }],
    jwks: { keys: deps.secrets.signingKeys as never },
    cookies: { keys: deps.secrets.cookieKeys },
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: PROFILE_CLAIMS },
    conformIdTokenClaims: false,
    async findAccount(_ctx, sub) {
      const claims = await findUser(sub);
      if (!claims) return undefined;
      return { accountId: sub, claims: () => claims as { sub: string } };
    },
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== "AccessToken" || !("accountId" in token) || !token.accountId) {
        return undefined;
      }
      return await accessTokenClaims(token.iat, () => findUser(String(token.accountId)));
    },
    // The spec's login uses prompt=login (no consent prompt) yet asks for offline_access:
    // refresh tokens are what the session dialog's Continue uses to renew silently.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => API_AUDIENCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: "api",
          audience: API_AUDIENCE,
          accessTokenTTL: deps.accessTokenTtl ?? 3600,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: "RS256" } },
        }),
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: KoaContextWithOIDC, form: string) => {
          const nonce = crypto.randomUUID().replaceAll("-", "");
          ctx.set(
            "Content-Security-Policy",
            `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; form-action 'self'`,
          );
          ctx.body = renderLogout({ lang: langOf(ctx), form, nonce, appName: deps.appName });
        },
        postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => {
          ctx.body = renderMessage({
            lang: langOf(ctx),
            text: "signedOut",
            appName: deps.appName,
            homeUrl: `${publicUrl}/`,
          });
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `${OIDC_PATH}/interaction/${interaction.uid}` },
    renderError: (ctx, _out, error) => {
      deps.logger.warn("OIDC error page", { error: error.message });
      ctx.type = "html";
      ctx.body = renderMessage({
        lang: langOf(ctx),
        text: "error",
        appName: deps.appName,
        homeUrl: `${publicUrl}/`,
      });
    },
    ttl: {
      AccessToken: deps.accessTokenTtl ?? 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Grant: 14 * 24 * 3600,
      RefreshToken: 14 * 24 * 3600,
      Session: 14 * 24 * 3600,
    },
  };
}

function langOf(ctx: KoaContextWithOIDC): Language {
  return pickLanguage(ctx.get("accept-language"));
}

type Callback = ReturnType<Provider["callback"]>;

async function handle(
  provider: Provider,
  deps: ProviderDeps,
  callback: Callback,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const url = new URL(req.url ?? "/", "http://internal");
  const match = /^\/oidc\/interaction\/([\w-]+)(\/login)?$/.exec(url.pathname);
  if (match) return await interaction(provider, deps, req, res, url, Boolean(match[2]));
  // oidc-provider finds its mount path from the difference between originalUrl and url.
  (req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
  req.url = (req.url ?? "/").slice(OIDC_PATH.length) || "/";
  return await callback(req, res);
}

async function interaction(
  provider: Provider,
  deps: ProviderDeps,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  isSubmit: boolean,
) {
  const details = await provider.interactionDetails(req, res);
  const pageUrl = `${OIDC_PATH}/interaction/${details.uid}`;
  const params = details.params as Record<string, string | undefined>;
  if (details.prompt.name !== "login") {
    return await grantAndFinish(provider, deps, req, res, details);
  }
  if (!isSubmit || req.method !== "POST") {
    const lang = pickLanguage(
      url.searchParams.get("lang"),
      params.ui_locales,
      req.headers["accept-language"],
    );
    return sendHtml(
      res,
      200,
      renderLogin({ lang, action: `${pageUrl}/login`, pageUrl, appName: deps.appName }),
    );
  }
  const outcome = await submitLogin(deps, {
    form: new URLSearchParams(await readBody(req)),
    pageUrl,
    uiLocales: params.ui_locales,
    acceptLanguage: req.headers["accept-language"],
    address: clientAddressOf(req),
  });
  if (outcome.kind === "page") return sendHtml(res, outcome.status, outcome.html, outcome.headers);
  await provider.interactionFinished(req, res, {
    login: { accountId: outcome.accountId },
  }, {
    mergeWithLastSubmission: false,
  });
}

/** The client address the /oidc proxy passed on (null when unknown). */
function clientAddressOf(req: IncomingMessage): string | null {
  const value = req.headers[CLIENT_ADDRESS_HEADER];
  return typeof value === "string" && value ? value : null;
}

/**
 * How long a kiosk's grant lives (its refresh tokens rotate at every renewal, up to a year in
 * all): a wall display stays signed in while it renews at least every RefreshToken TTL.
 */
const KIOSK_GRANT_TTL = 365 * 24 * 3600;

// The web app is a first-party client: consent is granted without asking the user.
async function grantAndFinish(
  provider: Provider,
  deps: ProviderDeps,
  req: IncomingMessage,
  res: ServerResponse,
  details: Awaited<ReturnType<Provider["interactionDetails"]>>,
) {
  const { prompt, params, session, grantId } = details;
  const grant = grantId
    ? (await provider.Grant.find(grantId))!
    : new provider.Grant({ accountId: session!.accountId, clientId: String(params.client_id) });
  const missing = prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(" "));
  }
  if (!grantId) {
    const accountId = String(grant.accountId);
    const user = await deps.users.getById(accountId.slice(accountId.lastIndexOf("|") + 1));
    // The typings omit it: a token's own lifetime, used by save() instead of ttl.Grant.
    if (user?.kiosk) (grant as unknown as { expiresIn: number }).expiresIn = KIOSK_GRANT_TTL;
  }
  const id = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId: id } }, {
    mergeWithLastSubmission: true,
  });
}

function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, {
    ...headers,
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Security-Policy":
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  });
  res.end(html);
}

async function readBody(req: IncomingMessage, limit = 16 * 1024): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error("Interaction body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
