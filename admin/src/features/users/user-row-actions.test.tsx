// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MantineProvider } from "@mantine/core";
import { Refine, type DataProvider } from "@refinedev/core";
import type { ManagedUser } from "./access-labels";
import { UserRowActions } from "./user-row-actions";

afterEach(cleanup);

// jsdom has no matchMedia; Mantine's Modal asks it about reduced motion.
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
  }) as unknown as MediaQueryList;

const user = (over: Partial<ManagedUser> = {}): ManagedUser => ({
  uid: "u1",
  email: "nico@studio.test",
  displayName: "Nico",
  emailVerified: false,
  phoneNumber: null,
  photoURL: null,
  providerData: [],
  role: "staff",
  hasAccess: false,
  language: "en",
  createdAt: "2026-11-23T20:00:00.000Z",
  updatedAt: "2026-11-23T20:00:00.000Z",
  accessRequest: { message: "hi", createdAt: "2026-11-23T20:00:00.000Z" },
  access: "pending",
  version: 3,
  updatedBy: null,
  ...over,
});

/** The one call the row makes is `update`; it answers as the server would (a refusal is an HttpError). */
function setup(row: ManagedUser, update: DataProvider["update"]) {
  const dataProvider = {
    getApiUrl: () => "",
    getList: async () => ({ data: [], total: 0 }),
    getOne: async () => ({ data: row }),
    create: async () => ({ data: row }),
    deleteOne: async () => ({ data: row }),
    update,
  } as unknown as DataProvider;
  render(
    <MantineProvider>
      <Refine
        dataProvider={dataProvider}
        resources={[{ name: "users", list: "/users" }]}
        options={{ disableTelemetry: true }}
      >
        <UserRowActions user={row} />
      </Refine>
    </MantineProvider>,
  );
  return userEvent.setup();
}

describe("a users list row's actions", () => {
  it("offers Approve and Make admin to a pending staff member, and sends one update each", async () => {
    const update = vi.fn(async ({ variables }) => ({
      data: { ...user(), ...(variables as object) },
    })) as unknown as DataProvider["update"];
    const clicker = setup(user(), update);
    expect(screen.queryByRole("button", { name: "Revoke" })).toBeNull();
    await clicker.click(screen.getByRole("button", { name: "Approve" }));
    await waitFor(() =>
      expect(update).toHaveBeenCalledWith(
        expect.objectContaining({
          resource: "users",
          id: "u1",
          variables: { hasAccess: true },
          meta: expect.objectContaining({ ifMatch: 3 }),
        }),
      ),
    );
    await clicker.click(screen.getByRole("button", { name: "Make admin" }));
    await waitFor(() =>
      expect(update).toHaveBeenLastCalledWith(expect.objectContaining({ variables: { role: "admin" } })),
    );
  });

  it("shows the server's refusal in the row", async () => {
    const update = vi.fn(async () =>
      Promise.reject({ statusCode: 409, message: "You cannot remove your own admin role" }),
    );
    const clicker = setup(
      user({ role: "admin", hasAccess: true, access: "approved", accessRequest: null }),
      update as unknown as DataProvider["update"],
    );
    await clicker.click(screen.getByRole("button", { name: "Make staff" }));
    expect((await screen.findByRole("alert")).textContent).toBe("You cannot remove your own admin role");
  });

  it("asks before revoking, naming the e-mail, and keeps a refusal in the dialog", async () => {
    const update = vi.fn(async () => Promise.reject({ statusCode: 409, message: "You cannot revoke your own access" }));
    const clicker = setup(
      user({ hasAccess: true, access: "approved", accessRequest: null }),
      update as unknown as DataProvider["update"],
    );
    await clicker.click(screen.getByRole("button", { name: "Revoke" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("nico@studio.test")).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
    await clicker.click(within(dialog).getByRole("button", { name: "Revoke" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("You cannot revoke your own access");
    expect(update).toHaveBeenCalledWith(expect.objectContaining({ id: "u1", variables: { hasAccess: false } }));
  });

  it("says who changed the user meanwhile, and applies the change on top of theirs only when asked", async () => {
    const current = user({ role: "admin", version: 4 });
    const update = vi
      .fn()
      .mockRejectedValueOnce({
        statusCode: 412,
        message: "Someone else saved this record while you were editing",
        current,
        changedBy: { uid: "u9", name: "Ada" },
      })
      .mockResolvedValue({ data: { ...current, hasAccess: true, version: 5 } });
    const clicker = setup(user(), update as unknown as DataProvider["update"]);
    await clicker.click(screen.getByRole("button", { name: "Approve" }));
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Ada changed Role while you were editing")).toBeTruthy();
    expect(update).toHaveBeenCalledTimes(1);
    await clicker.click(within(alert).getByRole("button", { name: "Apply my changes on top" }));
    await waitFor(() =>
      expect(update).toHaveBeenLastCalledWith(
        expect.objectContaining({ variables: { hasAccess: true }, meta: expect.objectContaining({ ifMatch: 4 }) }),
      ),
    );
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
  });
});
