/**
 * The kernel's part of the HTTP contract, shared with the web app: the error body every call
 * answers with, the field errors of `common.validation`, and the header with which a super role
 * names the customer it acts on. Pure: imports nothing.
 */

/** The JSON body of every API error. */
export interface ErrorBody {
  code?: number;
  key: string;
  params: Record<string, unknown>;
}

/**
 * One field error of a `common.validation` answer (`params.issues`): the field's path
 * (`feeders.2.name`), the message key of its text (namespace `errors`, e.g.
 * `validation.nameTooLong`) and the placeholders of that text. The one shape every module
 * answers and the web parses.
 */
export interface FieldIssue {
  path: string;
  key: string;
  params: Record<string, unknown>;
}

/** The header with which a super role names the customer it acts on (kernel/tenant.ts). */
export const CUSTOMER_HEADER = "X-Customer";

/** The public configuration of the web app: `GET /config.json` (no token). */
export interface WebConfig {
  appName: string;
  version: string;
  /** The footer's vendor link (VENDOR_URL); empty: the product's own about page in the help. */
  vendorUrl: string;
  /** The OpenID provider the web app logs in with (code flow with PKCE). */
  oidc: { authority: string; clientId: string; scope: string };
  /**
   * Where `/` goes when neither the user's stored start page nor the start_page claim names a
   * page that works: a built screen (/grid-monitoring); a user who may not open it gets the
   * first built screen they may open (web/src/lib/start-page.ts).
   */
  defaultStartPage: string;
  /** The key spec 2.2 lets every signed-in user open (Data Export "acts as a start page"). */
  defaultStartPageKey: string;
  /** Module keys every signed-in user may open (spec 6). */
  appsOpenToAll: string[];
  helpBaseUrl: string;
  /** Minutes without input before the session dialog shows (0 disables). */
  sessionInactivityMinutes: number;
  /** Base URL of the REST calls; absent: the same origin. */
  apiBaseUrl?: string;
  /**
   * PUBLIC_URL: the address the product is installed at. The sign-in only works there (the
   * identity provider's redirects name it), so the web app opened elsewhere says where to go.
   */
  publicUrl?: string;
}
