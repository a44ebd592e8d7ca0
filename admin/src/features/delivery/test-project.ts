import type { Project } from "../../../../api/types";

/** A published project as the delivery tests need it: default delivery settings with `delivery`'s changes. */
export const deliveryProject = (delivery: Partial<Project["delivery"]> = {}, version = 5) =>
  ({
    id: 7,
    deliveryUrl: "/d/abc",
    version,
    updatedBy: null,
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
