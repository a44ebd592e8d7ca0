// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MantineProvider } from "@mantine/core";
import type { HttpError } from "@refinedev/core";
import type { SendingDraft } from "../../../../api/types";
import { SendForm } from "./send-form";

afterEach(cleanup);

const draft = (values: Partial<SendingDraft> = {}): SendingDraft => ({
  subject: "Your photos from Lumen Studio: Lima Wedding",
  message: "Hello,\n\nYour photos are ready.",
  contacts: [
    { id: 1, name: "Ana Lima", email: "ana@lima.test", unsubscribed: false, valid: true },
    { id: 2, name: "Luís Lima", email: "luis@lima.test", unsubscribed: true, valid: true },
    { id: 3, name: "Typo", email: "typo@", unsubscribed: false, valid: false },
  ],
  hasPasscode: false,
  linkHolders: 0,
  problem: null,
  ...values,
});

function setup(d: SendingDraft, error: HttpError | null = null) {
  const onSend = vi.fn();
  render(
    <MantineProvider>
      <SendForm draft={d} sending={false} error={error} onSend={onSend} onCancel={() => {}} />
    </MantineProvider>,
  );
  return { onSend, user: userEvent.setup() };
}

const sendButton = () => screen.getByRole("button", { name: /^Send to \d+ recipients?$/ }) as HTMLButtonElement;

describe("the Send to client form", () => {
  it("ticks the contacts that can be mailed and says why the others cannot", async () => {
    const { onSend, user } = setup(draft());
    expect((screen.getByLabelText("Ana Lima <ana@lima.test>") as HTMLInputElement).checked).toBe(true);
    const luis = screen.getByLabelText("Luís Lima <luis@lima.test>") as HTMLInputElement;
    expect(luis.checked).toBe(false);
    expect(luis.disabled).toBe(true);
    expect(screen.getByText("Unsubscribed: this address asked for no more e-mails, so it is skipped")).toBeTruthy();
    expect(screen.getByText("Not a valid e-mail address: correct it on the client's page")).toBeTruthy();

    await user.type(screen.getByLabelText("Add an address"), "Ana <ana@x.test>{Enter}");
    expect(screen.getByText("Invalid email format")).toBeTruthy();
    await user.clear(screen.getByLabelText("Add an address"));
    await user.type(screen.getByLabelText("Add an address"), "planner@events.test");
    await user.click(screen.getByRole("button", { name: "Add" }));
    expect(sendButton().textContent).toBe("Send to 2 recipients");
    await user.click(sendButton());
    expect(onSend).toHaveBeenCalledWith({
      contactIds: [1],
      emails: ["planner@events.test"],
      subject: "Your photos from Lumen Studio: Lima Wedding",
      message: "Hello,\n\nYour photos are ready.",
    });
  });

  it("asks for the passcode again only when it is to be included", async () => {
    const { onSend, user } = setup(draft({ hasPasscode: true }));
    expect(screen.queryByLabelText("Passcode")).toBeNull();
    await user.click(screen.getByLabelText("Include the passcode"));
    expect(sendButton().disabled).toBe(true);
    await user.type(screen.getByLabelText("Passcode"), "garden-24");
    await user.click(sendButton());
    expect(onSend).toHaveBeenCalledWith(expect.objectContaining({ passcode: "garden-24" }));
  });

  it("shows why nothing can be sent, and the server's answer beside its field", () => {
    setup(draft({ problem: "Mail is not set up: set SMTP_URL and MAIL_FROM to send e-mail" }), {
      statusCode: 400,
      message: "This is not the link's passcode",
      errors: { subject: "Subject must be one line without control characters" },
    });
    expect(screen.getByText("Mail is not set up: set SMTP_URL and MAIL_FROM to send e-mail")).toBeTruthy();
    expect(screen.getByText("Subject must be one line without control characters")).toBeTruthy();
    expect(sendButton().disabled).toBe(true);
  });
});
