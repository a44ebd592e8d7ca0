import crypto from "node:crypto";
import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from "jose";
import { nowIso, type Db } from "../db/database";

export const ALGORITHM = "ES256";

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
}

/** The newest active key pair, generated and stored on first start. */
export async function loadOrCreateSigningKey(db: Db): Promise<SigningKey> {
  const row = await db("signing_keys").whereNull("retired_at").orderBy("created_at", "desc").first();
  if (row) {
    return { kid: row.kid, privateKey: (await importJWK(JSON.parse(row.private_jwk), row.algorithm)) as CryptoKey };
  }
  const { publicKey, privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  const kid = crypto.randomBytes(12).toString("base64url");
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: "sig" };
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: ALGORITHM };
  await db("signing_keys").insert({
    kid,
    algorithm: ALGORITHM,
    public_jwk: JSON.stringify(publicJwk),
    private_jwk: JSON.stringify(privateJwk),
    created_at: nowIso(),
  });
  return { kid, privateKey };
}

/** Public halves of every key not yet retired: what `/api/auth/jwks.json` serves and what tokens are checked against. */
export async function publicJwks(db: Db): Promise<{ keys: JWK[] }> {
  const rows = await db("signing_keys").whereNull("retired_at").select("public_jwk");
  return { keys: rows.map((r) => JSON.parse(r.public_jwk) as JWK) };
}
