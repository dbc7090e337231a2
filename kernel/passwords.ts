/** Password hashing with Argon2id (memory-hard), encoded in the PHC string format. */
import { argon2id, argon2Verify } from "hash-wasm";

// OWASP's second recommended Argon2id profile: 19 MiB, 2 iterations, 1 lane.
const PARAMS = { parallelism: 1, iterations: 2, memorySize: 19456, hashLength: 32 } as const;

/** Hashes a password with a fresh random salt. */
export function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return argon2id({ password, salt, ...PARAMS, outputType: "encoded" });
}

/** Checks a password against a stored hash; a malformed hash never matches. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (!hash.startsWith("$argon2id$")) return false;
  try {
    return await argon2Verify({ password, hash });
  } catch {
    return false;
  }
}
