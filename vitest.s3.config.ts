import { defineConfig } from "vitest/config";

// The suites whose files go through server/storage, with STORAGE_URL set: an S3 protocol server
// (s3rver) started by the global setup, each test app under a prefix of its own in one bucket.
// project-deletion.test.ts arranges 10,000 photos, past what s3rver stores in a test's time
// (deleting a project's objects is in stored-photos.test.ts).
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
    ],
    exclude: [
      "server/**/*.pg.test.ts",
      "server/attachments/file-names.test.ts",
      "server/attachments/project-deletion.test.ts",
    ],
    pool: "forks",
    globalSetup: ["server/test/s3-global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
