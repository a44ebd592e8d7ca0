import { afterAll, beforeAll } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "./harness";

/** For a whole test file: a fresh app and an approved staff user, made before its tests and closed after them. */
export function appWithUser(
  env: Record<string, string> = {},
  opts: Parameters<typeof createTestApp>[1] = {},
): { t: TestApp; user: TestUser } {
  const made = {} as { t: TestApp; user: TestUser };
  beforeAll(async () => {
    made.t = await createTestApp(env, opts);
    made.user = await createUser(made.t.ctx);
  });
  afterAll(() => made.t?.close());
  return made;
}
