import { defineConfig } from "vitest/config";
import { testPool } from "./server/test/test-pool";

// The suites whose files go through server/storage, with STORAGE_URL set: an S3 protocol server
// (s3rver) started by the global setup, each test app under a prefix of its own in one bucket.
// project-deletion.test.ts and delivery-parts.test.ts arrange 10,000 photos, past what s3rver
// stores in a test's time (deleting a project's objects is in stored-photos.test.ts). Left on
// disk: the suites that hold a build back with a named pipe (publish-queue, publish-lease,
// publish-race, publish-held-build), arrange `.part` files (recovery), or test what only files allow (delivery-files:
// sendfile, the proxy's hand-over); publish-storage.test.ts starts its own s3rver in `npm test`.
export default defineConfig({
  test: {
    include: [
      "server/storage/object-store.test.ts",
      "server/storage/migrate*.test.ts",
      "server/storage/presigned-downloads.test.ts",
      "server/backup/object-backup.test.ts",
      "server/attachments/**/*.test.ts",
      "server/delivery/stored-photos.test.ts",
      "server/publish/publish.test.ts",
      "server/publish/published.test.ts",
      "server/publish/web-size-zip.test.ts",
      "server/delivery/delivery.test.ts",
      "server/delivery/download-choices.test.ts",
      "server/delivery/download-count.test.ts",
      "server/delivery/delivery-previews.test.ts",
      "server/delivery/delivery-branding.test.ts",
      "server/delivery/delivery-settings.test.ts",
    ],
    exclude: [
      "server/**/*.pg.test.ts",
      "server/attachments/file-names.test.ts",
      "server/attachments/project-deletion.test.ts",
    ],
    ...testPool,
    globalSetup: ["server/test/s3-global-setup.ts"],
    setupFiles: ["server/openapi/contract-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
