import request from "supertest";
import { describe, expect, it } from "vitest";
import type { SelectionNotice } from "../../api/types";
import { createUser } from "../test/harness";
import { visitorOf } from "../favourites/test-fixtures";
import { studioFixture } from "../sending/test-fixtures";

const fixture = studioFixture();

describe("the bell's received selections", () => {
  it("lists who sent how many photos for which project, the latest first, to every staff member", async () => {
    const s = await fixture.studio();
    const other = await createUser(s.t.ctx, { email: "bo@lumen.test" });
    const list = async (auth = s.staff.auth) =>
      (await request(s.t.app).get("/api/users/me/notifications/selections").set(auth).expect(200))
        .body as SelectionNotice[];
    expect(await list()).toEqual([]);

    const ana = visitorOf(s.t, s.delivery.token, "198.51.100.3");
    await ana.join("Ana Lima", "ana@lima.test");
    await ana.mark(1);
    await ana.mark(3);
    // Chosen but not sent: nothing to tell yet.
    expect(await list()).toEqual([]);
    await ana.submit().expect(200);

    const luis = visitorOf(s.t, s.delivery.token, "198.51.100.4");
    await luis.join("Luís Lima", "luis@lima.test");
    await luis.mark(2);
    await luis.submit().expect(200);

    const expected = [
      { visitorName: "Luís Lima", photoCount: 1, projectId: s.delivery.id, projectName: "Lima Wedding" },
      { visitorName: "Ana Lima", photoCount: 2, projectId: s.delivery.id, projectName: "Lima Wedding" },
    ];
    expect(await list()).toMatchObject(expected);
    expect(await list(other.auth)).toMatchObject(expected);
    expect((await list())[0].sentAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await request(s.t.app).get("/api/users/me/notifications/selections")).status).toBe(401);
  });
});
