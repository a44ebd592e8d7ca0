import { Test } from "supertest";
import { contractProblems, type AnswerLike } from "./contract";

type Assert = (
  this: Test,
  error: Error | null,
  res: AnswerLike,
  fn: (error: Error | null, res: AnswerLike) => void,
) => void;

/** supertest's own assert, kept while the hook is in: installing twice must not check twice. */
const ORIGINAL = Symbol.for("photodrop.contractHook.assert");

/**
 * From now on every answer a supertest request receives is checked against the OpenAPI document
 * (contract.ts) before the test sees it; routes the document leaves out (HTML pages, files) are
 * skipped. Installing it again changes nothing (the setup file runs before each test file of a
 * worker). Returns what takes the check away again.
 */
export function installContractHook(): () => void {
  const prototype = Test.prototype as unknown as { assert: Assert; [ORIGINAL]?: Assert };
  const assert = prototype[ORIGINAL] ?? prototype.assert;
  const uninstall = () => {
    prototype.assert = assert;
    delete prototype[ORIGINAL];
  };
  if (prototype[ORIGINAL]) return uninstall;
  prototype[ORIGINAL] = assert;
  prototype.assert = function (this: Test, error, res, fn) {
    const request = this as unknown as { method: string; url: string };
    if (!error && res) {
      const path = new URL(request.url).pathname;
      const problems = contractProblems(res, request.method, path, { unknownRoutes: "skip" });
      if (problems.length > 0) return fn.call(this, new Error(problems.join("\n")), res);
    }
    return assert.call(this, error, res, fn);
  };
  return uninstall;
}
