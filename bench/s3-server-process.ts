/**
 * The storage bench's S3 protocol server (s3rver, as `npm run test:s3` uses) in a process of its
 * own, so it shares no event loop with the bench or Photodrop. Prints `running at <endpoint>
 * bucket <name>`; ends on SIGTERM.
 */
import { startS3Server } from "../server/test/s3-server";

const server = await startS3Server("photodrop-bench");
console.log(`running at ${server.endpoint} bucket ${server.bucket}`);
process.once("SIGTERM", () => void server.stop().then(() => process.exit(0)));
