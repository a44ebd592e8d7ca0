import type request from "supertest";
import { expect } from "vitest";
import { createTestApp, type TestApp } from "../test/harness";
import { RELAXED_LIMITS, signUp } from "./auth-test-helpers";

export const OWNER = { email: "owner@studio.test", password: "secret123" };

/** An app behind one trusted proxy (so X-Forwarded-Proto counts), with OWNER signed up. */
export async function appWithOwner(): Promise<TestApp> {
  const t = await createTestApp({ ...RELAXED_LIMITS, TRUST_PROXY: "1" });
  await signUp(t.app, OWNER.email, OWNER.password);
  return t;
}

/** The cookie `name` an answer sets, as `name=value`, and its attributes; expects there is one. */
export function cookieSet(res: request.Response, name: string): { pair: string; attributes: string } {
  const header = ([] as string[]).concat(res.headers["set-cookie"] ?? []).find((c) => c.startsWith(`${name}=`));
  expect(header, `a ${name} cookie`).toBeDefined();
  const [pair, ...attributes] = header!.split(";").map((p) => p.trim());
  return { pair, attributes: attributes.join("; ") };
}
