// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { MantineProvider } from "@mantine/core";
import type { Project } from "../../../../api/types";
import { DeliveryLinkState } from "./delivery-link-state";

afterEach(cleanup);

const published = (expiresAt: string | null, allowDownloads = true) =>
  ({
    id: 3,
    deliveryUrl: "/d/abc",
    delivery: {
      expiresAt,
      hasPasscode: false,
      views: 0,
      downloads: 0,
      lastDownloadAt: null,
      allowDownloads,
      offerWebSize: false,
      favouritesLimit: null,
    },
  }) as Project;

describe("the delivery link's badge", () => {
  it("turns from live to expired at the moment of expiry, without a reload", async () => {
    const expiresAt = new Date(Date.now() + 1_200).toISOString();
    render(
      <MantineProvider>
        <DeliveryLinkState project={published(expiresAt)} />
      </MantineProvider>,
    );
    expect(screen.getByText("Live")).toBeTruthy();
    expect(screen.getByText(/^Expires /)).toBeTruthy();
    await screen.findByText("Expired", undefined, { timeout: 5_000 });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    expect(screen.queryByText("Live")).toBeNull();
    expect(screen.queryByText(/^Expires /)).toBeNull();
  });

  it("stays live without an expiry", () => {
    render(
      <MantineProvider>
        <DeliveryLinkState project={published(null)} />
      </MantineProvider>,
    );
    expect(screen.getByText("Live")).toBeTruthy();
  });

  it("says 'View-only' while downloads are off, and only then", () => {
    const { rerender } = render(
      <MantineProvider>
        <DeliveryLinkState project={published(null, false)} />
      </MantineProvider>,
    );
    expect(screen.getByText("View-only")).toBeTruthy();
    rerender(
      <MantineProvider>
        <DeliveryLinkState project={published(null, true)} />
      </MantineProvider>,
    );
    expect(screen.queryByText("View-only")).toBeNull();
  });
});
