// @vitest-environment jsdom
import { MantineProvider } from "@mantine/core";
import { Refine } from "@refinedev/core";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { authProvider } from "../../providers/auth-provider";
import { dataProvider } from "../../providers/data-provider";
import { http } from "../../providers/http";
import { webAppServerPerFile } from "../../test/web-app-server";
import { ContactFormModal } from "./contact-form-modal";
import type { Contact } from "./types";
import { useContactModalForm } from "./use-contact-modal-form";

const server = webAppServerPerFile({ signIn: true });
let clientId: number;
let reads = 0;

beforeAll(async () => {
  const { body } = await server.api().post("/api/clients").set(server.colleague.auth).send({ name: "Conflict Client" });
  clientId = body.id;
  // The dialog reads its record once on opening; the colleague saves only after that read.
  http.interceptors.response.use((response) => {
    if (response.config.url?.startsWith("/contacts?")) reads += 1;
    return response;
  });
});
afterEach(cleanup);

function EditContact({ contact }: { contact: Contact }) {
  const form = useContactModalForm({ clientId, action: "edit" });
  return (
    <>
      <button type="button" onClick={() => form.showFor(contact)}>
        Edit
      </button>
      <ContactFormModal form={form} title="Edit Contact" />
    </>
  );
}

/** A contact as the screen shows it, and the dialog opened on it (no live provider: saves by others arrive as 412). */
async function openEditorOn(fields: object) {
  const { body: contact } = await server
    .api()
    .post("/api/contacts")
    .set(server.colleague.auth)
    .send({ clientId, ...fields });
  render(
    <MantineProvider>
      <Refine dataProvider={dataProvider} authProvider={authProvider} options={{ disableTelemetry: true }}>
        <EditContact contact={contact as Contact} />
      </Refine>
    </MantineProvider>,
  );
  const user = userEvent.setup();
  const readsBefore = reads;
  await user.click(screen.getByRole("button", { name: "Edit" }));
  const dialog = await screen.findByRole("dialog");
  await waitFor(() => expect(reads).toBeGreaterThan(readsBefore));
  return { contact: contact as Contact, dialog: within(dialog), user };
}

const colleagueSaves = (id: number, fields: object) =>
  server.api().patch(`/api/contacts/${id}`).set(server.colleague.auth).send(fields).expect(200);
const stored = (id: number) => server.t.ctx.db("contacts").where({ id }).first();
const valueOf = (field: HTMLElement) => (field as HTMLInputElement).value;

describe("two people editing one contact", () => {
  it("says who changed what, keeps what was typed, and applies it on top: both changes kept", async () => {
    const { contact, dialog, user } = await openEditorOn({ name: "Ann Field", email: "ann@studio.test" });
    await user.type(dialog.getByLabelText("Phone"), "555 0100");
    await colleagueSaves(contact.id, { email: "ann.field@studio.test" });

    await user.click(dialog.getByRole("button", { name: "Save" }));
    const alert = await dialog.findByRole("alert");
    expect(within(alert).getByText(`${server.colleague.email} changed Email while you were editing`)).toBeTruthy();
    expect(valueOf(dialog.getByLabelText("Phone"))).toBe("555 0100");
    // Nothing typed there: the field shows the colleague's save.
    expect(valueOf(dialog.getByLabelText("Email"))).toBe("ann.field@studio.test");
    expect(await stored(contact.id)).toMatchObject({ email: "ann.field@studio.test", phone_number: null });

    await user.click(within(alert).getByRole("button", { name: "Apply my changes on top" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(await stored(contact.id)).toMatchObject({
      name: "Ann Field",
      email: "ann.field@studio.test",
      phone_number: "555 0100",
    });
  });

  it("discards the user's change to the field the colleague changed: the form shows theirs, nothing is sent", async () => {
    const { contact, dialog, user } = await openEditorOn({ name: "Bo Lane" });
    const name = dialog.getByLabelText(/Name/);
    await user.clear(name);
    await user.type(name, "Bo Mine");
    await colleagueSaves(contact.id, { name: "Bo Theirs" });

    await user.click(dialog.getByRole("button", { name: "Save" }));
    const alert = await dialog.findByRole("alert");
    expect(alert.textContent).toContain(`${server.colleague.email} changed Name while you were editing`);
    expect(valueOf(name)).toBe("Bo Mine");

    await user.click(within(alert).getByRole("button", { name: "Discard my changes" }));
    await waitFor(() => expect(valueOf(name)).toBe("Bo Theirs"));
    expect(dialog.queryByRole("alert")).toBeNull();
    const { version } = await stored(contact.id);
    await user.click(dialog.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(await stored(contact.id)).toMatchObject({ name: "Bo Theirs", version });
  });
});
