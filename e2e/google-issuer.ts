import http from "node:http";
import type net from "node:net";
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";

export const GOOGLE_CLIENT_ID = "photodrop-e2e.apps.googleusercontent.com";
export const GOOGLE_ISSUER = "https://accounts.google.com";
const KEY_ID = "e2e-google-key";

/**
 * Stands in for Google's published signing keys, so the server verifies real RS256 ID tokens that
 * the tests sign with the matching private key.
 */
export async function startGoogleIssuer(): Promise<{ jwksUrl: string; privateJwk: JWK; close: () => Promise<void> }> {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: KEY_ID, alg: "RS256", use: "sig" }] });
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(jwks);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    jwksUrl: `http://127.0.0.1:${port}/jwks.json`,
    privateJwk: await exportJWK(privateKey),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An ID token as Google Identity Services hands it to the page. */
export async function googleIdToken(
  privateJwk: JWK,
  claims: { sub: string; email: string; name: string },
): Promise<string> {
  const key = await importJWK(privateJwk, "RS256");
  return new SignJWT({ email: claims.email, email_verified: true, name: claims.name })
    .setProtectedHeader({ alg: "RS256", kid: KEY_ID, typ: "JWT" })
    .setIssuer(GOOGLE_ISSUER)
    .setAudience(GOOGLE_CLIENT_ID)
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(key);
}
