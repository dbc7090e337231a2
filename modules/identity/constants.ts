/** Names the embedded provider, the verifier and the web app share. */

/** Mount path of the provider under the public origin. */
export const OIDC_PATH = "/oidc";
/** Audience of the API's access tokens. */
export const API_AUDIENCE = "urn:gridwatch:api";
/** The web app's client id. */
export const WEB_CLIENT_ID = "gridwatch-web";
/** Audience of API clients' access tokens (external_v1): never accepted on the user API. */
export const EXTERNAL_AUDIENCE = "urn:gridwatch:external";
