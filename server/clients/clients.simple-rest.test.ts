import http from "node:http";
import type { AddressInfo } from "node:net";
import axios from "axios";
import dataProvider from "@refinedev/simple-rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createUser, type TestApp } from "../test/harness";
import { insertClientRow, insertContactRow } from "../test/rows";

let t: TestApp;
let server: http.Server;
let provider: ReturnType<typeof dataProvider>;

beforeAll(async () => {
  t = await createTestApp();
  const user = await createUser(t.ctx);
  server = http.createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const client = axios.create({ headers: user.auth, timeout: 5000 });
  // Our own instance replaces simple-rest's, so its error mapping is added back here, keeping field errors.
  client.interceptors.response.use(undefined, (error) =>
    Promise.reject({
      message: error.response?.data?.message,
      statusCode: error.response?.status,
      errors: error.response?.data?.errors,
    }),
  );
  provider = dataProvider(`http://127.0.0.1:${port}/api`, client);
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.close();
});

describe("the clients API driven by @refinedev/simple-rest", () => {
  beforeAll(async () => {
    for (const name of ["Delta Films", "Alpine Photo", "Echo Studio", "Bright Frames", "Cedar Weddings"]) {
      await insertClientRow(t.ctx, name);
    }
    const alpine = (await t.ctx.db("clients").where({ name: "Alpine Photo" }).first()).id;
    await insertContactRow(t.ctx, alpine, "Ana");
  });

  it("lists a sorted page and reads the total from X-Total-Count", async () => {
    const { data, total } = await provider.getList({
      resource: "clients",
      pagination: { currentPage: 1, pageSize: 2 },
      sorters: [{ field: "name", order: "asc" }],
    });
    expect(total).toBe(5);
    expect(data.map((c) => c.name)).toEqual(["Alpine Photo", "Bright Frames"]);
    expect(data[0]).toMatchObject({ contactCount: 1, projectCount: 0 });

    const second = await provider.getList({
      resource: "clients",
      pagination: { currentPage: 3, pageSize: 2 },
      sorters: [{ field: "name", order: "asc" }],
    });
    expect(second.total).toBe(5);
    expect(second.data.map((c) => c.name)).toEqual(["Echo Studio"]);
  });

  it("searches with a q filter and filters by field", async () => {
    const { data, total } = await provider.getList({
      resource: "clients",
      filters: [{ field: "q", operator: "eq", value: "studio" }],
    });
    expect(total).toBe(1);
    expect(data.map((c) => c.name)).toEqual(["Echo Studio"]);
  });

  it("creates, reads, updates with PATCH and deletes one client", async () => {
    const before = await provider.getList({ resource: "clients" });
    const created = await provider.create({ resource: "clients", variables: { name: "Fjord Light" } });
    const id = created.data.id as number;
    expect(created.data).toMatchObject({ name: "Fjord Light", projectCount: 0, contactCount: 0 });

    const one = await provider.getOne({ resource: "clients", id });
    expect(one.data).toMatchObject({ id, name: "Fjord Light", contacts: [], projects: [] });

    const many = await provider.getMany!({ resource: "clients", ids: [id] });
    expect(many.data.map((c) => c.id)).toEqual([id]);

    const updated = await provider.update({
      resource: "clients",
      id,
      variables: { ...one.data, name: "Fjord Light Studio" },
    });
    expect(updated.data).toMatchObject({ id, name: "Fjord Light Studio" });
    expect((await t.ctx.db("clients").where({ id }).first()).name).toBe("Fjord Light Studio");

    await provider.deleteOne({ resource: "clients", id });
    expect(await t.ctx.db("clients").where({ id }).first()).toBeUndefined();
    expect((await provider.getList({ resource: "clients" })).total).toBe(before.total);
  });

  it("rejects with the status, the message and the field errors", async () => {
    await expect(provider.create({ resource: "clients", variables: { name: " " } })).rejects.toEqual({
      message: "Name is required",
      statusCode: 400,
      errors: { name: "Name is required" },
    });
    await expect(provider.getOne({ resource: "clients", id: 987654 })).rejects.toMatchObject({
      message: "Client not found",
      statusCode: 404,
    });
  });
});
