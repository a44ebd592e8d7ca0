// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MantineProvider } from "@mantine/core";
import type { Project } from "../../../../api/types";
import type { DeliverySettingsChange } from "./use-delivery-actions";
import { DeliverySettingsForm } from "./delivery-settings-form";
import { deliveryProject } from "./test-project";

afterEach(cleanup);

/** What the server answers: the project with the change stored (a passcode only as 'set'), one version on. */
const stored = (before: Project) => async (change: DeliverySettingsChange) => {
  const { passcode, ...settings } = change;
  const hasPasscode = passcode === undefined ? before.delivery.hasPasscode : passcode !== null;
  return deliveryProject({ ...before.delivery, ...settings, hasPasscode }, before.version + 1);
};

function setup(p: Project, onSave = vi.fn(stored(p))) {
  const view = render(
    <MantineProvider>
      <DeliverySettingsForm project={p} saving={false} onSave={onSave} />
    </MantineProvider>,
  );
  const rerender = (next: Project) =>
    view.rerender(
      <MantineProvider>
        <DeliverySettingsForm project={next} saving={false} onSave={onSave} />
      </MantineProvider>,
    );
  return { onSave, user: userEvent.setup(), rerender };
}

const saveButton = () => screen.getByRole("button", { name: "Save delivery settings" });

describe("the delivery settings form", () => {
  it("sends a typed passcode alone, with the version the form started from, and forgets it once saved", async () => {
    const { onSave, user } = setup(deliveryProject());
    await user.type(screen.getByLabelText("Passcode"), "garden-24");
    await user.click(saveButton());
    expect(onSave).toHaveBeenLastCalledWith({ passcode: "garden-24" }, 5);
    await waitFor(() => expect((screen.getByLabelText("Passcode") as HTMLInputElement).value).toBe(""));
    await user.click(saveButton());
    expect(onSave).toHaveBeenCalledTimes(1);
  });

  it("sends the favourites limit when it changes, and null when it is emptied", async () => {
    const { onSave, user } = setup(deliveryProject({ favouritesLimit: 20 }));
    const limit = screen.getByLabelText("Favourites limit") as HTMLInputElement;
    expect(limit.value).toBe("20");
    await user.clear(limit);
    await user.type(limit, "5");
    await user.click(saveButton());
    expect(onSave).toHaveBeenLastCalledWith({ favouritesLimit: 5 }, 5);
    await user.clear(limit);
    await user.click(saveButton());
    await waitFor(() => expect(onSave).toHaveBeenLastCalledWith({ favouritesLimit: null }, 6));
  });

  it("refuses an expiry in the past before sending anything", async () => {
    const { onSave, user } = setup(deliveryProject());
    const expiry = screen.getByLabelText("Link expires");
    await user.type(expiry, "2020-01-01T10:00");
    await screen.findByText("The expiry must be in the future");
    expect((saveButton() as HTMLButtonElement).disabled).toBe(true);
    expect(onSave).not.toHaveBeenCalled();
  });

  it("refuses a passcode under 4 characters before sending anything", async () => {
    const { onSave, user } = setup(deliveryProject());
    await user.type(screen.getByLabelText("Passcode"), "abc");
    expect(screen.getByText("Passcode must be 4 to 64 characters")).toBeTruthy();
    expect((saveButton() as HTMLButtonElement).disabled).toBe(true);
    expect(onSave).not.toHaveBeenCalled();
  });

  it("offers 'Remove passcode' only when one is set, and shows the server's message when saving fails", async () => {
    const onSave = vi.fn().mockRejectedValue({ message: "Expiry must be an ISO 8601 date and time" });
    const { user } = setup(deliveryProject({ hasPasscode: true }), onSave);
    vi.spyOn(console, "error").mockImplementation(() => {});
    await user.click(screen.getByRole("button", { name: "Remove passcode" }));
    expect(onSave).toHaveBeenCalledWith({ passcode: null });
    await screen.findByText("Expiry must be an ISO 8601 date and time");
    cleanup();
    setup(deliveryProject());
    expect(screen.queryByRole("button", { name: "Remove passcode" })).toBeNull();
  });

  it("sends the download switches only when they changed, and offers web size only while downloads are allowed", async () => {
    const { onSave, user } = setup(deliveryProject());
    const allow = screen.getByRole("checkbox", { name: /Allow downloads/ }) as HTMLInputElement;
    const web = screen.getByRole("checkbox", { name: /Offer web-size downloads/ }) as HTMLInputElement;
    expect([allow.checked, web.checked, web.disabled]).toEqual([true, false, false]);
    await user.click(web);
    await user.click(saveButton());
    expect(onSave).toHaveBeenLastCalledWith({ offerWebSize: true }, 5);
    await waitFor(() => expect(allow.disabled).toBe(false));
    await user.click(allow);
    expect(web.disabled).toBe(true);
    await user.click(saveButton());
    await waitFor(() => expect(onSave).toHaveBeenLastCalledWith({ allowDownloads: false }, 6));
  });

  it("shows a view-only project's switches as saved", () => {
    setup(deliveryProject({ allowDownloads: false, offerWebSize: true }));
    expect((screen.getByRole("checkbox", { name: /Allow downloads/ }) as HTMLInputElement).checked).toBe(false);
    const web = screen.getByRole("checkbox", { name: /Offer web-size downloads/ }) as HTMLInputElement;
    expect([web.checked, web.disabled]).toEqual([true, true]);
    expect(screen.getByText(/view-only proofing gallery/)).toBeTruthy();
  });

  it("follows another editor's save in the fields the user has not touched, keeping what the user typed", async () => {
    const { onSave, user, rerender } = setup(deliveryProject());
    const limit = screen.getByLabelText("Favourites limit") as HTMLInputElement;
    await user.type(limit, "12");
    rerender(deliveryProject({ offerWebSize: true, favouritesLimit: 30 }, 6));
    const web = screen.getByRole("checkbox", { name: /Offer web-size downloads/ }) as HTMLInputElement;
    await waitFor(() => expect(web.checked).toBe(true));
    expect(limit.value).toBe("12");
    // Both changed the limit: the user is told before saving, and the save starts from the new version.
    expect((await screen.findByRole("alert")).textContent).toContain(
      "Someone else changed Offer web-size downloads and Favourites limit while you were editing",
    );
    await user.click(saveButton());
    expect(onSave).toHaveBeenLastCalledWith({ favouritesLimit: 12 }, 6);
  });
});
