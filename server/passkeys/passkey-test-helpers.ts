import crypto from "node:crypto";
import request from "supertest";
import type { SessionBody } from "../auth/auth-test-helpers";
import type { TestApp } from "../test/harness";
import { insertPasskey } from "./passkeys.repository";

const sha256 = (data: Buffer | string) => crypto.createHash("sha256").update(data).digest();

/** COSE_Key of an ES256 public key: {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}, CBOR by hand. */
function coseKeyOf(publicKey: crypto.KeyObject): Buffer {
  const jwk = publicKey.export({ format: "jwk" });
  const x = Buffer.from(jwk.x!, "base64url");
  const y = Buffer.from(jwk.y!, "base64url");
  const head = Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]);
  return Buffer.concat([head, x, Buffer.from([0x22, 0x58, 0x20]), y]);
}

/**
 * A passkey held in the test (an ES256 key pair), for the server tests' sign-ins without a browser:
 * it signs assertions as an authenticator does (authenticator data, then the client data's hash).
 * The browser journeys use Chromium's own authenticator instead (e2e/passkeys.spec.ts).
 */
export function softwarePasskey(credentialId = crypto.randomBytes(16).toString("base64url")) {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  /** The credential as the browser's JSON hands it over, `clientData` encoded alongside `response`. */
  const credentialOf = <R extends object>(clientData: string, response: R) => ({
    id: credentialId,
    rawId: credentialId,
    type: "public-key",
    clientExtensionResults: {},
    response: { clientDataJSON: Buffer.from(clientData).toString("base64url"), ...response },
  });
  return {
    credentialId,
    publicKey: coseKeyOf(publicKey).toString("base64url"),
    /** What `startAuthentication` would answer; `signWith` another key to forge the signature. */
    assert(opts: {
      challenge: string;
      counter: number;
      userHandle: string;
      origin?: string;
      rpId?: string;
      signWith?: crypto.KeyObject;
    }) {
      const clientData = JSON.stringify({
        type: "webauthn.get",
        challenge: opts.challenge,
        origin: opts.origin ?? "http://localhost:4000",
        crossOrigin: false,
      });
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(opts.counter);
      // Flags 0x05: the user was present and verified.
      const authData = Buffer.concat([sha256(opts.rpId ?? "localhost"), Buffer.from([0x05]), counter]);
      const signature = crypto.sign(
        "sha256",
        Buffer.concat([authData, sha256(clientData)]),
        opts.signWith ?? privateKey,
      );
      return credentialOf(clientData, {
        authenticatorData: authData.toString("base64url"),
        signature: signature.toString("base64url"),
        userHandle: opts.userHandle,
      });
    },
    /** What `startRegistration` would answer to options with `challenge`: attestation 'none', CBOR by hand. */
    attest(challenge: string) {
      const clientData = JSON.stringify({ type: "webauthn.create", challenge, origin: "http://localhost:4000" });
      const id = Buffer.from(credentialId, "base64url");
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      // Flags 0x45: present, verified, attested credential data follows; counter 0; an all-zero AAGUID.
      const authData = Buffer.concat([
        sha256("localhost"),
        Buffer.from([0x45, 0, 0, 0, 0]),
        Buffer.alloc(16),
        idLength,
        id,
        coseKeyOf(publicKey),
      ]);
      const attestation = Buffer.concat([
        Buffer.from("a363666d74646e6f6e656761747453746d74a068617574684461746158", "hex"),
        Buffer.from([authData.length]),
        authData,
      ]);
      return credentialOf(clientData, {
        attestationObject: attestation.toString("base64url"),
        transports: ["internal"],
      });
    },
  };
}

/** How the tests name the server: a host where browsers allow passkeys (any port). */
export const LOCAL = { Host: "localhost:4000" };

/** A passkey whose key the test holds, stored for `who` at localhost with counter 5. */
export async function heldPasskey(app: TestApp, who: SessionBody, name = "Held key") {
  const key = softwarePasskey();
  const passkey = await insertPasskey(app.ctx.db, {
    uid: who.user.uid,
    name,
    credentialId: key.credentialId,
    publicKey: key.publicKey,
    counter: 5,
    transports: ["internal"],
    rpId: "localhost",
  });
  return { key, passkey: passkey! };
}

/** The WebAuthn user handle of an account, as its passkeys carry it. */
export const handleOf = (who: SessionBody) => Buffer.from(who.user.uid).toString("base64url");

export const signInOptions = (app: TestApp["app"], host = LOCAL) =>
  request(app).post("/api/auth/passkey/options").set(host);
