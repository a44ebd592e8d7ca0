// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MantineProvider } from "@mantine/core";
import { StorageCard } from "./storage-card";

afterEach(cleanup);

const GB = 1024 ** 3;

describe("the Storage Usage card", () => {
  it("shows what Photodrop keeps against its room, and the data volume apart", () => {
    // 30 GB of photos and 10 GB of ZIPs on a 500 GB volume with 360 GB free.
    const stats = {
      diskUsage: { used: 40, total: 400, percentage: 10 },
      storage: { photosBytes: 30 * GB, zipsBytes: 10 * GB, freeBytes: 360 * GB, totalBytes: 500 * GB },
    };
    render(
      <MantineProvider>
        <StorageCard stats={stats} loading={false} />
      </MantineProvider>,
    );
    expect(screen.getByRole("heading", { name: "Storage Usage" })).toBeTruthy();
    expect(screen.getByText("40.0 GB used of 400.0 GB")).toBeTruthy();
    expect(screen.getByText("10.0% used")).toBeTruthy();
    expect(screen.getByText("90.0% available")).toBeTruthy();
    const detail = within(screen.getByLabelText("Storage in detail"));
    expect(detail.getByText("Photos").nextSibling?.textContent).toBe("30.0 GB");
    expect(detail.getByText("Published ZIPs").nextSibling?.textContent).toBe("10.0 GB");
    expect(detail.getByText("Free on the data volume").nextSibling?.textContent).toBe("360.0 GB of 500.0 GB");
  });

  it("shows a fresh instance's empty store as nothing used", () => {
    const stats = {
      diskUsage: { used: 0, total: 37.2, percentage: 0 },
      storage: { photosBytes: 0, zipsBytes: 0, freeBytes: 37.2 * GB, totalBytes: 100 * GB },
    };
    render(
      <MantineProvider>
        <StorageCard stats={stats} loading={false} />
      </MantineProvider>,
    );
    expect(screen.getByText("0.0 GB used of 37.2 GB")).toBeTruthy();
    expect(screen.getAllByText("0 B")).toHaveLength(2);
  });

  it("shows a bucket's use without a volume to fill or a free-space line", () => {
    const stats = {
      diskUsage: { used: 12.5, total: 12.5, percentage: 0 },
      location: { kind: "bucket" as const, bucket: "studio-photos" },
    };
    render(
      <MantineProvider>
        <StorageCard stats={stats} loading={false} />
      </MantineProvider>,
    );
    expect(screen.getByText("12.5 GB in object storage")).toBeTruthy();
    expect(within(screen.getByLabelText("Storage in detail")).getByText("Bucket").nextSibling?.textContent).toBe(
      "studio-photos",
    );
    expect(screen.queryByLabelText("Storage used")).toBeNull();
    expect(screen.queryByText(/available/)).toBeNull();
  });
});
