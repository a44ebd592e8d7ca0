// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { webAppServerPerFile } from "../test/web-app-server";
import { accessControlProvider } from "./access-control";
import { authProvider } from "./auth-provider";

const server = webAppServerPerFile();

const can = (resource: string) => accessControlProvider.can({ resource, action: "list" });

describe("the access rules against the real API", () => {
  it("open the Studio, Users and Webhooks screens to an admin only; every approved user opens the rest", async () => {
    expect(await authProvider.login({ email: server.email, password: server.password })).toMatchObject({
      success: true,
    });
    for (const resource of ["studio", "users", "webhooks", "projects"])
      expect(await can(resource), resource).toEqual({ can: true });

    const staff = { email: "staff@studio.test", password: "staff-password-1" };
    expect((await server.api().post("/api/auth/signup").send(staff)).status).toBe(201);
    await server.t.ctx.db("users").where({ email: staff.email }).update({ has_access: true });
    await authProvider.logout({});
    expect(await authProvider.login(staff)).toMatchObject({ success: true });
    expect(await can("studio")).toEqual({ can: false, reason: "Only administrators change the studio's settings" });
    expect(await can("users")).toEqual({ can: false, reason: "Only administrators manage users" });
    expect(await can("webhooks")).toEqual({ can: false, reason: "Only administrators manage webhooks" });
    expect(await can("projects")).toEqual({ can: true });
  });
});
