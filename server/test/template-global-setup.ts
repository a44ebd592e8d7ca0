import { makeTemplates } from "./test-database";

/** `npm test`: one migrated sqlite database for the run, which every test app's database is copied from. */
export default function setup() {
  return makeTemplates();
}
