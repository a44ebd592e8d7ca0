import request from "supertest";
import { describe, expect, it } from "vitest";
import { makeImage, makeNoisyJpeg } from "../attachments/test-fixtures";
import { appWithUser } from "../test/app-with-user";
import { until } from "../test/wait";
import { isPostgresUrl } from "./dialect";
import { attachmentRow, insertAttachmentRow, insertContactRow } from "../test/rows";

const made = appWithUser();
const api = () => request(made.t.app);
const db = () => made.t.ctx.db;

/** Every kept count and sum beside the same figure counted from the rows themselves. */
async function keptAndReal() {
  const kept = Object.fromEntries(
    (await db()("list_totals").select("name", "total")).map((r) => [r.name, Number(r.total)]),
  );
  const count = async (table: string) => Number((await db()(table).count({ n: "*" }).first())?.n);
  const sum = async (table: string, column: string) => Number((await db()(table).sum({ n: column }).first())?.n ?? 0);
  const perParent = async (parent: string, column: string, child: string, key: string) =>
    (
      await db()(`${parent} as p`)
        .select(
          "p.id",
          `p.${column} as kept`,
          db().raw(`(SELECT count(*) FROM ${child} x WHERE x.${key} = p.id) AS real`),
        )
        .orderBy("p.id")
    ).map((r) => [Number(r.id), Number(r.kept), Number(r.real)]);
  // Each project's kept first photo (the cover when none is chosen) beside the one the photos' order gives.
  const firstPhotos = async () =>
    (
      await db()("projects as p")
        .select(
          "p.id",
          "p.first_attachment_id as keptId",
          "p.first_attachment_at as keptAt",
          db().raw(
            "(SELECT a.id FROM attachments a WHERE a.project_id = p.id ORDER BY a.created_at, a.id LIMIT 1) AS id1",
          ),
          db().raw("(SELECT min(a.created_at) FROM attachments a WHERE a.project_id = p.id) AS at1"),
        )
        .orderBy("p.id")
    ).map((r) => [Number(r.id), `${r.keptId ?? "none"} ${r.keptAt ?? ""}`, `${r.id1 ?? "none"} ${r.at1 ?? ""}`]);
  return {
    kept: {
      clients: kept.clients,
      contacts: kept.contacts,
      projects: kept.projects,
      attachments: kept.attachments,
      bytes: kept["attachments.size"],
      zips: kept["projects.published_zip_size"],
    },
    real: {
      clients: await count("clients"),
      contacts: await count("contacts"),
      projects: await count("projects"),
      attachments: await count("attachments"),
      bytes: await sum("attachments", "size"),
      zips: await sum("projects", "published_zip_size"),
    },
    parents: [
      ...(await perParent("clients", "project_count", "projects", "client_id")),
      ...(await perParent("clients", "contact_count", "contacts", "client_id")),
      ...(await perParent("projects", "attachment_count", "attachments", "project_id")),
      ...(await firstPhotos()),
    ],
  };
}

async function expectExact() {
  const { kept, real, parents } = await keptAndReal();
  expect(kept).toEqual(real);
  for (const [id, stored, counted] of parents) expect({ id, stored }).toEqual({ id, stored: counted });
}

const post = (path: string, body: object) => api().post(path).set(made.user.auth).send(body);
const upload = (projectId: number, ...files: Array<[Buffer, string]>) => {
  const req = api().post(`/api/attachments/projects/${projectId}/upload-multiple`).set(made.user.auth);
  for (const [bytes, name] of files) req.attach("files", bytes, name);
  return req;
};

describe("totals and first photos kept by triggers stay exact", () => {
  it("through creating, moving and deleting clients, contacts, projects and photos", async () => {
    await expectExact();
    const [a, b] = [
      (await post("/api/clients", { name: "A" })).body.id,
      (await post("/api/clients", { name: "B" })).body.id,
    ];
    await post("/api/contacts", { clientId: a, name: "Ann" }).expect(201);
    const contact = await insertContactRow(made.t.ctx, b, "Bo");
    const [p, q, r] = [
      (await post("/api/projects", { name: "P", clientId: a })).body.id,
      (await post("/api/projects", { name: "Q", clientId: a })).body.id,
      (await post("/api/projects", { name: "R" })).body.id,
    ];
    const photo = await makeNoisyJpeg(64, 48);
    const uploaded = await upload(p, [photo, "1.jpg"], [await makeImage("png"), "2.png"], [photo, "3.jpg"]).expect(201);
    await upload(q, [photo, "4.jpg"]).expect(201);
    await expectExact();

    // Moves: a project to another client and to none, a photo to another project (no API moves photos).
    await api().patch(`/api/projects/${q}`).set(made.user.auth).send({ clientId: b }).expect(200);
    await api().patch(`/api/projects/${p}`).set(made.user.auth).send({ clientId: null }).expect(200);
    await db()("attachments").where({ id: uploaded.body[0].id }).update({ project_id: r });
    await expectExact();
    // A photo dated earlier becomes its project's first; the first one dated later gives way.
    await db()("attachments").where({ id: uploaded.body[2].id }).update({ created_at: "2000-01-01T00:00:00.000Z" });
    await expectExact();
    await db()("attachments").where({ id: uploaded.body[2].id }).update({ created_at: "2099-01-01T00:00:00.000Z" });
    await expectExact();
    // Photos imported in one statement, dated out of their ids' order: the earliest is first, then the next.
    const imported = ["2001", "1999", "2000"].map((year, i) =>
      attachmentRow(r, { size: 10, storageKey: `${r}/import-${i}.jpg`, createdAt: `${year}-01-01T00:00:00.000Z` }),
    );
    await db()("attachments").insert(imported);
    await expectExact();
    await db()("attachments")
      .whereIn("storage_key", [`${r}/import-1.jpg`, `${r}/import-0.jpg`])
      .delete();
    await expectExact();

    // Deletions: one photo, photos in bulk, a contact, a project with its photos, a client with its contacts.
    await api().delete(`/api/attachments/${uploaded.body[1].id}`).set(made.user.auth).expect(204);
    await upload(r, [photo, "5.jpg"], [photo, "6.jpg"]).expect(201);
    const rest = (await db()("attachments").where({ project_id: r }).pluck("id")) as number[];
    await api().delete("/api/attachments").set(made.user.auth).send({ ids: rest }).expect(204);
    await api().delete(`/api/contacts/${contact}`).set(made.user.auth).expect(204);
    await api().delete(`/api/projects/${q}`).set(made.user.auth).expect(204);
    await api().delete(`/api/clients/${a}`).set(made.user.auth).expect(204);
    await expectExact();
  });

  it("through uploads refused whole and transactions rolled back", async () => {
    const project = (await post("/api/projects", { name: "Refusals" })).body.id;
    await upload(project, [await makeImage("png"), "good.png"], [Buffer.from("not an image"), "bad.jpg"]).expect(415);
    const before = await keptAndReal();
    await db()
      .transaction(async (trx) => {
        await trx("clients").insert({
          name: "Gone",
          created_at: "2026-01-01T00:00:00.000Z",
          updated_at: "2026-01-01T00:00:00.000Z",
        });
        await trx("attachments").where({ project_id: project }).delete();
        await trx("projects").where({ id: project }).update({ published_zip_size: 123 });
        await insertAttachmentRow({ ...made.t.ctx, db: trx }, project, { size: 999 });
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await keptAndReal()).toEqual(before);
    await expectExact();
  });

  it("through a project's first photo deleted or re-dated while a photo added to it is not yet committed", async () => {
    /** Sessions of this database waiting for a lock (PostgreSQL), or requests waiting for sqlite's one connection. */
    const waiting = async () => {
      if (!isPostgresUrl(made.t.ctx.config.databaseUrl))
        return (db().client as { pool: { numPendingAcquires(): number } }).pool.numPendingAcquires();
      const sql =
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'";
      return Number((await db().raw(sql)).rows[0].n);
    };
    /** The change waits behind the open upload before that commits. */
    const queuedBehindTheUpload = () => until(waiting, (n) => n > 0);
    /** Runs `change` on the project's first photo while another transaction holds a photo added after it. */
    const whileAnUploadIsOpen = async (change: (first: number) => Promise<unknown>) => {
      const project = (await post("/api/projects", { name: "Race" })).body.id;
      const first = await insertAttachmentRow(made.t.ctx, project, { size: 1 });
      let commit!: () => void;
      const committing = new Promise<void>((resolve) => (commit = resolve));
      let inserted!: () => void;
      const added = new Promise<void>((resolve) => (inserted = resolve));
      const adding = db().transaction(async (trx) => {
        await insertAttachmentRow({ ...made.t.ctx, db: trx }, project, { size: 2 });
        inserted();
        await committing;
      });
      await added;
      const changing = change(first);
      await queuedBehindTheUpload();
      commit();
      await Promise.all([adding, changing]);
      await expectExact();
    };
    // A delete waits first for list_totals' row, which the upload holds too (sqlite: for the write lock).
    await whileAnUploadIsOpen((first) => db()("attachments").where({ id: first }).delete().then());
    // A re-date touches no total: on PostgreSQL only the trigger's lock on the project makes it read
    // the photo the upload added once that commits (without it the project kept no first photo).
    await whileAnUploadIsOpen((first) =>
      db()("attachments").where({ id: first }).update({ created_at: "2999-01-01T00:00:00.000Z" }).then(),
    );
  });

  it("through many writers at once", async () => {
    const client = (await post("/api/clients", { name: "Busy" })).body.id;
    const projects = await Promise.all(
      Array.from({ length: 6 }, (_, i) => post("/api/projects", { name: `Busy ${i}`, clientId: client })),
    );
    const photo = await makeNoisyJpeg(40, 30);
    await Promise.all(
      projects.flatMap((p) => [upload(p.body.id, [photo, "a.jpg"]), upload(p.body.id, [photo, "b.jpg"])]),
    );
    await Promise.all(projects.slice(0, 3).map((p) => api().delete(`/api/projects/${p.body.id}`).set(made.user.auth)));
    await expectExact();
  });
});
