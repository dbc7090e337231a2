/**
 * Per-install secrets: the token signing key and the cookie keys are generated on first start
 * and stored in the database. No default secret exists anywhere in the code.
 */
import { eq } from "drizzle-orm";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { Db } from "../../kernel/mod.ts";
import { secrets } from "./schema.ts";

/** The secrets of this installation. */
export interface InstallSecrets {
  /** Private signing keys (JWK with `d`), newest first. */
  signingKeys: JWK[];
  cookieKeys: string[];
}

/** Loads the secrets, creating them once when absent. */
export async function loadOrCreateSecrets(db: Db): Promise<InstallSecrets> {
  const signingKeys = await loadOrCreate(db, "signing_keys", async () => {
    const { privateKey } = await generateKeyPair("RS256", {
      extractable: true,
      modulusLength: 2048,
    });
    const jwk = await exportJWK(privateKey);
    return [{ ...jwk, kid: crypto.randomUUID(), alg: "RS256", use: "sig" }];
  });
  const cookieKeys = await loadOrCreate(db, "cookie_keys", () => {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    return Promise.resolve([btoa(String.fromCharCode(...bytes))]);
  });
  return { signingKeys, cookieKeys };
}

async function loadOrCreate<T>(db: Db, name: string, create: () => Promise<T>): Promise<T> {
  const [row] = await db.select().from(secrets).where(eq(secrets.name, name));
  if (row) return row.value as T;
  await db.insert(secrets).values({ name, value: await create() }).onConflictDoNothing();
  const [stored] = await db.select().from(secrets).where(eq(secrets.name, name));
  return stored!.value as T;
}

/** The public half of a private JWK. */
export function publicJwk(jwk: JWK): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk;
  return pub;
}
