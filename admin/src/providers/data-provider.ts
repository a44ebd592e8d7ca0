import type { DataProvider, MetaQuery } from "@refinedev/core";
import simpleRestDataProvider from "@refinedev/simple-rest";
import { http } from "./http";

/**
 * `meta.ifMatch`: the version of the record an edit started from, sent as `If-Match: "<version>"`
 * so the server refuses the write (412) when someone saved the record in between.
 */
export function ifMatchHeaders(meta: MetaQuery | undefined): Record<string, string> {
  const version = meta?.ifMatch;
  return typeof version === "number" && Number.isInteger(version) ? { "If-Match": `"${version}"` } : {};
}

const withIfMatch = (meta: MetaQuery | undefined): MetaQuery | undefined => {
  const headers = ifMatchHeaders(meta);
  return Object.keys(headers).length ? { ...meta, headers: { ...meta?.headers, ...headers } } : meta;
};

// The HTTP client already prefixes "/api", so resources are addressed from its root.
const simpleRest = simpleRestDataProvider("", http);

export const dataProvider: DataProvider = {
  ...simpleRest,
  update: (params) => simpleRest.update({ ...params, meta: withIfMatch(params.meta) }),
  custom: (params) => simpleRest.custom!({ ...params, headers: { ...params.headers, ...ifMatchHeaders(params.meta) } }),
};
