import { createLocalJWKSet, jwtVerify, SignJWT, type JWTVerifyGetKey } from "jose";
import type { Db } from "../db/database";
import { UnauthorizedError } from "../http/errors";
import { ALGORITHM, loadOrCreateSigningKey, publicJwks, type SigningKey } from "./signing-keys";

export const ISSUER = "urn:photodrop";
export const AUDIENCE = "photodrop-api";
const KEY_RELOAD_INTERVAL_MS = 30_000;

export interface TokenService {
  /**
   * A signed access token for the user; roles are not carried: every call reads them fresh.
   * `generation` is the user's session generation, so signing out everywhere can void it;
   * `sessionId` the sign-in it belongs to (`sid`), so ending that one session voids it too.
   */
  signAccessToken(uid: string, generation?: number, sessionId?: string): Promise<string>;
  /** The user, session generation and expiry (ms) of a valid token from a trusted issuer; throws UnauthorizedError otherwise. */
  verifyAccessToken(token: string): Promise<VerifiedToken>;
  accessTokenTtl: number;
}

export interface VerifiedToken {
  uid: string;
  generation: number;
  /** The sign-in (refresh-token family) the token was issued for; absent in tokens from before sessions. */
  sessionId?: string;
  expiresAt: number;
}

export async function createTokenService(db: Db, accessTokenTtl: number): Promise<TokenService> {
  const key: SigningKey = await loadOrCreateSigningKey(db);
  let keySet: JWTVerifyGetKey = createLocalJWKSet(await publicJwks(db));
  let keysLoadedAt = 0;

  return {
    accessTokenTtl,
    async signAccessToken(uid, generation = 0, sessionId) {
      return new SignJWT(sessionId ? { gen: generation, sid: sessionId } : { gen: generation })
        .setProtectedHeader({ alg: ALGORITHM, kid: key.kid, typ: "JWT" })
        .setSubject(uid)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${accessTokenTtl}s`)
        .sign(key.privateKey);
    },
    async verifyAccessToken(token) {
      return verify(token, true);
    },
  };

  async function verify(token: string, mayReload: boolean): Promise<VerifiedToken> {
    try {
      const { payload } = await jwtVerify(token, keySet, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: [ALGORITHM],
        requiredClaims: ["sub", "exp", "iat"],
      });
      return {
        uid: payload.sub as string,
        generation: typeof payload.gen === "number" ? payload.gen : 0,
        ...(typeof payload.sid === "string" && { sessionId: payload.sid }),
        expiresAt: (payload.exp as number) * 1000,
      };
    } catch (err) {
      // A key added by another process since start: reload the set, at most every half minute,
      // so tokens with made-up key ids cannot turn every request into a database read.
      const unknownKey = (err as { code?: string }).code === "ERR_JWKS_NO_MATCHING_KEY";
      if (mayReload && unknownKey && Date.now() - keysLoadedAt > KEY_RELOAD_INTERVAL_MS) {
        keySet = createLocalJWKSet(await publicJwks(db));
        keysLoadedAt = Date.now();
        return verify(token, false);
      }
      throw new UnauthorizedError("Invalid or expired token");
    }
  }
}
