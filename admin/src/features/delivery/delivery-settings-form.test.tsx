// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MantineProvider } from "@mantine/core";
import type { Project } from "../../../../api/types";
import { DeliverySettingsForm } from "./delivery-settings-form";

afterEach(cleanup);

const project = (delivery: Partial<Project["delivery"]> = {}) =>
  ({
    id: 7,
    deliveryUrl: "/d/abc",
    delivery: {
      expiresAt: null,
      hasPasscode: false,
      views: 0,
      downloads: 0,
      lastDownloadAt: null,
      allowDownloads: true,
      offerWebSize: false,
      favouritesLimit: null,
      ...delivery,
    },
  }) as Project;

function setup(p: Project, onSave = vi.fn().mockResolvedValue(undefined)) {
  render(
    <MantineProvider>
      <DeliverySettingsForm project={p} saving={false} onSave={onSave} />
    </MantineProvider>,
  );
  return { onSave, user: userEvent.setup() };
}

describe("the delivery settings form", () => {
  it("sends a new passcode with the expiry, and no passcode field when it is left blank", async () => {
    const { onSave, user } = setup(project());
    await user.type(screen.getByLabelText("Passcode"), "garden-24");
    await user.click(screen.getByRole("button", { name: "Save delivery settings" }));
    expect(onSave).toHaveBeenLastCalledWith({ expiresAt: null, passcode: "garden-24" });
    await waitFor(() => expect((screen.getByLabelText("Passcode") as HTMLInputElement).value).toBe(""));
    await user.click(screen.getByRole("button", { name: "Save delivery settings" }));
    expect(onSave).toHaveBeenLastCalledWith({ expiresAt: null });
  });

  it("sends the favourites limit when it changes, and null when it is emptied", async () => {
    const { onSave, user } = setup(project({ favouritesLimit: 20 }));
    const limit = screen.getByLabelText("Favourites limit") as HTMLInputElement;
    expect(limit.value).toBe("20");
    await user.click(screen.getByRole("button", { name: "Save delivery settings" }));
    expect(onSave).toHaveBeenLastCalledWith({ expiresAt: null });
    await user.clear(limit);
    await user.type(limit, "5");
    await user.click(screen.getByRole("button", { name: "Save delivery settings" }));
    expect(onSave).toHaveBeenLastCalledWith({ expiresAt: null, favouritesLimit: 5 });
    await user.clear(limit);
    await user.click(screen.getByRole("button", { name: "Save delivery settings" }));
    expect(onSave).toHaveBeenLastCalledWith({ expiresAt: null, favouritesLimit: null });
  });

  it("refuses an expiry in the past before sending anything", async () => {
    const { onSave, user } = setup(project());
    const expiry = screen.getByLabelText("Link expires");
    await user.type(expiry, "2020-01-01T10:00");
    await screen.findByText("The expiry must be in the future");
    expect((screen.getByRole("button", { name: "Save delivery settings" }) as HTMLButtonElement).disabled).toBe(true);
    expect(onSave).not.toHaveBeenCalled();
  });

  it("refuses a passcode under 4 characters before sending anything", async () => {
    const { onSave, user } = setup(project());
    await user.type(screen.getByLabelText("Passcode"), "abc");
    expect(screen.getByText("Passcode must be 4 to 64 characters")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Save delivery settings" }) as HTMLButtonElement).disabled).toBe(true);
    expect(onSave).not.toHaveBeenCalled();
  });

  it("offers 'Remove passcode' only when one is set, and shows the server's message when saving fails", async () => {
    const onSave = vi.fn().mockRejectedValue({ message: "Expiry must be an ISO 8601 date and time" });
    const { user } = setup(project({ hasPasscode: true }), onSave);
    vi.spyOn(console, "error").mockImplementation(() => {});
    await user.click(screen.getByRole("button", { name: "Remove passcode" }));
    expect(onSave).toHaveBeenCalledWith({ passcode: null });
    await screen.findByText("Expiry must be an ISO 8601 date and time");
    cleanup();
    setup(project());
    expect(screen.queryByRole("button", { name: "Remove passcode" })).toBeNull();
  });

  it("sends the download switches only when they changed, and offers web size only while downloads are allowed", async () => {
    const { onSave, user } = setup(project());
    const allow = screen.getByRole("checkbox", { name: /Allow downloads/ }) as HTMLInputElement;
    const web = screen.getByRole("checkbox", { name: /Offer web-size downloads/ }) as HTMLInputElement;
    expect([allow.checked, web.checked, web.disabled]).toEqual([true, false, false]);
    await user.click(web);
    await user.click(screen.getByRole("button", { name: "Save delivery settings" }));
    expect(onSave).toHaveBeenLastCalledWith({ expiresAt: null, offerWebSize: true });
    await user.click(allow);
    expect(web.disabled).toBe(true);
    await user.click(screen.getByRole("button", { name: "Save delivery settings" }));
    expect(onSave).toHaveBeenLastCalledWith({ expiresAt: null, allowDownloads: false, offerWebSize: true });
  });

  it("shows a view-only project's switches as saved", () => {
    setup(project({ allowDownloads: false, offerWebSize: true }));
    expect((screen.getByRole("checkbox", { name: /Allow downloads/ }) as HTMLInputElement).checked).toBe(false);
    const web = screen.getByRole("checkbox", { name: /Offer web-size downloads/ }) as HTMLInputElement;
    expect([web.checked, web.disabled]).toEqual([true, true]);
    expect(screen.getByText(/view-only proofing gallery/)).toBeTruthy();
  });
});
