import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp, type TestUser } from "../test/harness";
import { insertClientRow, insertContactRow, insertProjectRow } from "../test/rows";
import { STALE_RECORD_MESSAGE } from "./record-version";

/**
 * ETag / If-Match / 412 on every editable record (issue 46, item 1), on sqlite and, through
 * vitest.pg.config.ts, on PostgreSQL: the versions, the refusal of a stale save with the current
 * record and who made it, the race of two saves sent with the same If-Match, and saves without
 * If-Match that change only the fields they send.
 */

let t: TestApp;
/** Two admins editing the same records: Ann has a display name, Bob only his e-mail. */
let ann: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  ann = await createUser(t.ctx, { role: "admin" });
  bob = await createUser(t.ctx, { role: "admin" });
  await t.ctx.db("users").where({ uid: ann.uid }).update({ display_name: "Ann Editor" });
});
afterAll(() => t.close());

const api = () => request(t.app);
let n = 0;
/** A value no earlier save used. */
const next = () => ++n;

interface Urls {
  /** Where GET reads the record. */
  record: string;
  /** Where it is written (PUT, and PATCH where `methods` says so). */
  write: string;
}

interface Kind {
  name: string;
  /** A record of this kind to edit (the studio has one). */
  create(): Promise<Urls>;
  /** PUT and PATCH unless it says otherwise. */
  methods?: Array<"put" | "patch">;
  /** Two changes of different fields, as two editors' forms would send them. */
  first(n: number): object;
  second(n: number): object;
  /** The edited fields as GET shows them, in the bodies' terms. */
  shown(body: Record<string, unknown>): object;
}

/** A record read and written at the same path. */
const samePath = (path: string): Urls => ({ record: path, write: path });
const methodsOf = (kind: Kind) => kind.methods ?? (["put", "patch"] as const);

const kinds: Kind[] = [
  {
    name: "client",
    create: async () => samePath(`/api/clients/${await insertClientRow(t.ctx, "Harbour Lights")}`),
    first: (n) => ({ name: `Harbour Lights ${n}` }),
    // A client has one editable field: the second editor renames it too.
    second: (n) => ({ name: `Harbour ${n}` }),
    shown: (b) => ({ name: b.name }),
  },
  {
    name: "contact",
    create: async () =>
      samePath(
        `/api/contacts/${await insertContactRow(t.ctx, await insertClientRow(t.ctx, "Northfield"), "Maya Lind")}`,
      ),
    first: (n) => ({ email: `maya${n}@northfield.test` }),
    second: (n) => ({ name: `Maya ${n}` }),
    shown: (b) => ({ email: b.email, name: b.name }),
  },
  {
    name: "project",
    create: async () => samePath(`/api/projects/${await insertProjectRow(t.ctx, { name: "Spring wedding" })}`),
    first: (n) => ({ description: `Two cameras, take ${n}` }),
    second: (n) => ({ name: `Spring wedding ${n}` }),
    shown: (b) => ({ description: b.description, name: b.name }),
  },
  {
    name: "project's delivery settings",
    async create() {
      const id = await insertProjectRow(t.ctx, { name: "Autumn portraits" });
      return { record: `/api/projects/${id}`, write: `/api/projects/${id}/delivery` };
    },
    methods: ["put"],
    first: (n) => ({ favouritesLimit: n }),
    second: (n) => ({ allowDownloads: n % 2 === 0 }),
    shown: (b) => {
      const delivery = b.delivery as { favouritesLimit: number | null; allowDownloads: boolean };
      return { favouritesLimit: delivery.favouritesLimit, allowDownloads: delivery.allowDownloads };
    },
  },
  {
    name: "studio's settings",
    create: async () => samePath("/api/studio/settings"),
    first: (n) => ({ contactEmail: `hello${n}@lumen.test` }),
    second: (n) => ({ name: `Lumen ${n}` }),
    shown: (b) => ({ contactEmail: b.contactEmail, name: b.name }),
  },
  {
    name: "user's role and access",
    create: async () => samePath(`/api/users/${(await createUser(t.ctx)).uid}`),
    first: (n) => ({ role: n % 2 === 0 ? "admin" : "staff" }),
    second: (n) => ({ hasAccess: n % 2 === 0 }),
    shown: (b) => ({ role: b.role, hasAccess: b.hasAccess }),
  },
];

const read = (urls: Urls) => api().get(urls.record).set(ann.auth);

function write(urls: Urls, method: "put" | "patch", by: TestUser, body: object, ifMatch?: string) {
  const req = api()[method](urls.write).set(by.auth);
  if (ifMatch !== undefined) req.set("If-Match", ifMatch);
  return req.send(body);
}

/** The record and its version as GET answers them, its ETag checked against the version. */
async function current(urls: Urls): Promise<{ body: Record<string, unknown>; version: number }> {
  const res = await read(urls);
  expect(res.status).toBe(200);
  expect(res.headers.etag).toBe(`"${res.body.version}"`);
  return { body: res.body, version: res.body.version };
}

describe.each(kinds)("the $name", (kind) => {
  const patch = methodsOf(kind).at(-1)!;

  it("is read with its version, from 1, as a strong ETag", async () => {
    const urls = await kind.create();
    const res = await read(urls);
    expect(res.status).toBe(200);
    expect(Number.isInteger(res.body.version) && res.body.version >= 1).toBe(true);
    expect(res.headers.etag).toBe(`"${res.body.version}"`);
    expect(res.headers["access-control-expose-headers"]).toMatch(/\bETag\b/);
    if (kind.name !== "studio's settings") {
      expect(res.body.version).toBe(1);
      expect(res.body.updatedBy).toBeNull();
    }
  });

  it("is saved with the current If-Match: the version and ETag count up, the editor is named", async () => {
    const urls = await kind.create();
    const before = await current(urls);
    const change = kind.first(next());
    const res = await write(urls, patch, ann, change, `"${before.version}"`);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(`"${before.version + 1}"`);
    const after = await current(urls);
    expect(after.version).toBe(before.version + 1);
    expect(after.body.updatedBy).toEqual({ uid: ann.uid, name: "Ann Editor" });
    expect(kind.shown(after.body)).toMatchObject(change);
    // W/"n", a list naming it, and * match as well; each save counts up once.
    const tags = [`W/"${after.version}"`, `"999999", , "${after.version + 1}"`, "*"];
    for (const [i, tag] of tags.entries()) {
      const again = await write(urls, patch, bob, kind.first(next()), tag);
      expect(again.status).toBe(200);
      expect(again.headers.etag).toBe(`"${after.version + 1 + i}"`);
    }
    expect((await current(urls)).body.updatedBy).toEqual({ uid: bob.uid, name: bob.email });
  });

  it("refuses a save on a version someone else saved over: 412, the record as it is, who changed it; nothing changes", async () => {
    for (const method of methodsOf(kind)) {
      const urls = await kind.create();
      const opened = await current(urls);
      const first = await write(urls, method, ann, kind.first(next()), `"${opened.version}"`);
      expect(first.status).toBe(200);
      const saved = await current(urls);
      const res = await write(urls, method, bob, kind.second(next()), `"${opened.version}"`);
      expect(res.status).toBe(412);
      expect(res.headers.etag).toBe(`"${saved.version}"`);
      expect(res.body).toEqual({
        statusCode: 412,
        message: STALE_RECORD_MESSAGE,
        current: saved.body,
        changedBy: { uid: ann.uid, name: "Ann Editor" },
      });
      expect(await current(urls)).toEqual(saved);
    }
  });

  it("lets exactly one of four saves sent at once with the same If-Match through", async () => {
    const urls = await kind.create();
    const opened = await current(urls);
    const saves = await Promise.all(
      [ann, bob, ann, bob].map((by, i) =>
        write(urls, patch, by, i % 2 ? kind.second(next()) : kind.first(next()), `"${opened.version}"`),
      ),
    );
    expect(saves.map((s) => s.status).sort()).toEqual([200, 412, 412, 412]);
    const after = await current(urls);
    expect(after.version).toBe(opened.version + 1);
    const winner = saves.find((s) => s.status === 200)!;
    expect(winner.body).toMatchObject({ version: opened.version + 1 });
    for (const lost of saves.filter((s) => s.status === 412)) expect(lost.body.current).toEqual(after.body);
  });

  it("without If-Match, changes only the fields sent: two editors' changes both survive", async () => {
    const urls = await kind.create();
    const opened = await current(urls);
    const [a, b] = [kind.first(next()), kind.second(next())];
    expect((await write(urls, patch, ann, a)).status).toBe(200);
    const res = await write(urls, patch, bob, b);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(`"${opened.version + 2}"`);
    const after = await current(urls);
    // A client has one field: the later name stands; the others keep the first editor's field too.
    expect(kind.shown(after.body)).toEqual(kind.name === "client" ? b : { ...kind.shown(opened.body), ...a, ...b });
  });

  it.each(["abc", '"1', "W/1", '"1", abc', '"1";', " , "])(
    "answers 400 to a malformed If-Match %j and changes nothing",
    async (tag) => {
      const urls = await kind.create();
      const opened = await current(urls);
      const res = await write(urls, patch, ann, kind.first(next()), tag);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, message: "If-Match must be * or a list of entity tags" });
      expect(await current(urls)).toEqual(opened);
    },
  );
});

describe("what counts no version", () => {
  it("a project's views and downloads, and its cover, leave its version and ETag as they were", async () => {
    const id = await insertProjectRow(t.ctx, { name: "Counters" });
    const urls = samePath(`/api/projects/${id}`);
    const opened = await current(urls);
    await t.ctx.db("projects").where({ id }).increment("delivery_views", 3).increment("delivery_downloads", 1);
    const cover = await api().put(`/api/projects/${id}/cover`).set(ann.auth).send({ attachmentId: null });
    expect(cover.status).toBe(200);
    expect(cover.headers.etag).toBe(`"${opened.version}"`);
    const after = await current(urls);
    expect(after.version).toBe(opened.version);
    expect(after.body.delivery).toMatchObject({ views: 3, downloads: 1 });
    expect((await write(urls, "patch", ann, { name: "Counters 2" }, `"${opened.version}"`)).status).toBe(200);
  });

  it("a profile change by the user themself leaves the version an admin's form holds", async () => {
    const user = await createUser(t.ctx);
    const urls = samePath(`/api/users/${user.uid}`);
    const opened = await current(urls);
    expect((await api().patch("/api/users/me").set(user.auth).send({ displayName: "Zoë" })).status).toBe(200);
    const res = await write(urls, "patch", ann, { role: "admin" }, `"${opened.version}"`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ role: "admin", displayName: "Zoë", version: opened.version + 1 });
  });
});
