/** Arrangements for the favourites tests: a visitor of a delivery page, from an address of its own. */
import request from "supertest";
import type { TestApp } from "../test/harness";
import { cookiesOf } from "../delivery/test-fixtures";

export interface Visitor {
  /** The `Cookie` header the visitor's browser sends to the link (its key, and any passcode cookie). */
  cookie: string;
  join(name?: string, email?: string): Promise<request.Response>;
  list(): request.Test;
  mark(n: number | string, comment?: string | null): request.Test;
  unmark(n: number | string): request.Test;
  submit(): request.Test;
}

/**
 * One browser on one link, at client address `ip` (the test app trusts one proxy, so
 * X-Forwarded-For is the address the limits count). `join` keeps the visitor cookie it is given.
 */
export function visitorOf(t: TestApp, token: string, ip: string, cookie = ""): Visitor {
  const base = `/d/${token}/favourites`;
  const as = (req: request.Test) => {
    req.set("X-Forwarded-For", ip);
    return v.cookie ? req.set("Cookie", v.cookie) : req;
  };
  const v: Visitor = {
    cookie,
    async join(name = "Ana Lima", email = "ana@lima.test") {
      const res = await as(request(t.app).post(`${base}/visitor`)).send({ name, email });
      const given = cookiesOf(res);
      if (given) v.cookie = [v.cookie, given].filter(Boolean).join("; ");
      return res;
    },
    list: () => as(request(t.app).get(base)),
    mark: (n, comment) => as(request(t.app).put(`${base}/${n}`)).send(comment === undefined ? {} : { comment }),
    unmark: (n) => as(request(t.app).delete(`${base}/${n}`)),
    submit: () => as(request(t.app).post(`${base}/submit`)),
  };
  return v;
}

/** Positions (n) of a visitor's list as the page's script reads it. */
export const positions = (res: request.Response) => (res.body.favourites as Array<{ n: number }>).map((f) => f.n);
