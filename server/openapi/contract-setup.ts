import { Test } from "supertest";
import { contractProblems, type AnswerLike } from "./contract";

type Assert = (
  this: Test,
  error: Error | null,
  res: AnswerLike,
  fn: (error: Error | null, res: AnswerLike) => void,
) => void;

/**
 * A vitest setup file: every answer a supertest request receives in the suite is checked against
 * the OpenAPI document (contract.ts) before the test sees it, so every server test is a contract
 * test. Routes the document leaves out (HTML pages, files) are skipped. Enable it with
 * `setupFiles: ["server/openapi/contract-setup.ts"]` in the unit project.
 */
const prototype = Test.prototype as unknown as { assert: Assert; method: string; url: string };
const assert = prototype.assert;
prototype.assert = function (this: Test, error, res, fn) {
  const self = this as unknown as { method: string; url: string };
  if (!error && res) {
    const problems = contractProblems(res, self.method, new URL(self.url).pathname, { unknownRoutes: "skip" });
    if (problems.length > 0) return fn.call(this, new Error(problems.join("\n")), res);
  }
  return assert.call(this, error, res, fn);
};
