// @vitest-environment jsdom
import { MantineProvider } from "@mantine/core";
import { Refine } from "@refinedev/core";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, describe, expect, it } from "vitest";
import { authProvider } from "../../providers/auth-provider";
import { dataProvider } from "../../providers/data-provider";
import { webAppServerPerFile } from "../../test/web-app-server";
import { ContactFormModal } from "./contact-form-modal";
import { useContactModalForm } from "./use-contact-modal-form";

const server = webAppServerPerFile({ signIn: true });
let clientId: number;

beforeAll(async () => {
  const { body } = await server.api().post("/api/clients").set(server.colleague.auth).send({ name: "Form Client" });
  clientId = body.id;
});

function AddContact() {
  const form = useContactModalForm({ clientId, action: "create" });
  return (
    <>
      <button type="button" onClick={() => form.modal.show()}>
        Add Contact
      </button>
      <ContactFormModal form={form} title="Add Contact" />
    </>
  );
}

function renderForm() {
  return render(
    <MantineProvider>
      <Refine dataProvider={dataProvider} authProvider={authProvider} options={{ disableTelemetry: true }}>
        <AddContact />
      </Refine>
    </MantineProvider>,
  );
}

const contactsOfClient = () => server.t.ctx.db("contacts").where({ client_id: clientId });

describe("the add-contact dialog", () => {
  it("shows the spec's messages, sends nothing invalid, and saves a valid contact", async () => {
    const user = userEvent.setup();
    renderForm();
    await user.click(screen.getByRole("button", { name: "Add Contact" }));
    await screen.findByRole("dialog");

    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Name is required")).toBeTruthy();

    await user.type(screen.getByLabelText(/Name/), "Ann Field");
    await user.type(screen.getByLabelText("Email"), "ann.example.test");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Invalid email format")).toBeTruthy();
    expect(screen.queryByText("Name is required")).toBeNull();
    expect(await contactsOfClient()).toEqual([]);

    await user.clear(screen.getByLabelText("Email"));
    await user.type(screen.getByLabelText("Email"), "ann@example.test");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(async () =>
      expect(await contactsOfClient()).toMatchObject([{ name: "Ann Field", email: "ann@example.test" }]),
    );
  });
});
