import { describe, expect, it } from "vitest";
import { ValidationError } from "./errors";
import { parseListQuery, type ListSpec } from "./list-query";

const spec: ListSpec = {
  sortable: { id: "p.id", name: "p.name", createdAt: "p.created_at" },
  filterable: {
    id: { column: "p.id", type: "int" },
    clientId: { column: "p.client_id", type: "int" },
    name: { column: "p.name", type: "text" },
    hasAccess: { column: "u.has_access", type: "bool" },
  },
  searchColumn: "p.name",
  defaultSort: [{ column: "p.id", order: "asc" }],
};

describe("list parameters of @refinedev/simple-rest", () => {
  it("reads the page window, sort, search and filters", () => {
    const q = parseListQuery(
      {
        _start: "10",
        _end: "35",
        _sort: "name,createdAt",
        _order: "desc,asc",
        q: " wed ",
        clientId: "3",
        name_like: "Sm",
        id_ne: "4",
      },
      spec,
    );
    expect(q.range).toEqual({ offset: 10, limit: 25 });
    expect(q.sort).toEqual([
      { column: "p.name", order: "desc" },
      { column: "p.created_at", order: "asc" },
      { column: "p.id", order: "asc" },
    ]);
    expect(q.search).toBe("wed");
    expect(q.filters).toEqual([
      { column: "p.client_id", operator: "eq", values: [3] },
      { column: "p.name", operator: "like", values: ["Sm"] },
      { column: "p.id", operator: "ne", values: [4] },
    ]);
  });

  it("breaks ties in the direction of the last requested sort, so an index gives the whole order", () => {
    expect(parseListQuery({ _sort: "createdAt", _order: "desc" }, spec).sort).toEqual([
      { column: "p.created_at", order: "desc" },
      { column: "p.id", order: "desc" },
    ]);
    expect(parseListQuery({ _sort: "name", _order: "asc" }, spec).sort.at(-1)).toEqual({
      column: "p.id",
      order: "asc",
    });
  });

  it("answers every row without a window and keeps the default order", () => {
    const q = parseListQuery({}, spec);
    expect(q.range).toBeUndefined();
    expect(q.sort).toEqual([{ column: "p.id", order: "asc" }]);
  });

  it("reads a repeated field as 'any of' (getMany)", () => {
    expect(parseListQuery({ id: ["1", "2"] }, spec).filters).toEqual([
      { column: "p.id", operator: "eq", values: [1, 2] },
    ]);
  });

  it("reads booleans", () => {
    expect(parseListQuery({ hasAccess: "false" }, spec).filters[0].values).toEqual([false]);
  });

  it.each([
    [{ _sort: "password" }, "Cannot sort by password"],
    [{ _sort: "name", _order: "sideways" }, "_order must be asc or desc"],
    [{ _start: "-1" }, "_start must be a non-negative integer"],
    [{ _start: "abc" }, "_start must be a non-negative integer"],
    [{ _start: "20", _end: "10" }, "_end must not be below _start"],
    [{ _start: ["1", "2"] }, "_start must be given once"],
    [{ clientId: "abc" }, "Filter clientId must be an integer"],
    [{ hasAccess: "perhaps" }, "Filter hasAccess must be true or false"],
    [{ secret: "1" }, "Cannot filter by secret"],
    [{ id_gte: ["1", "2"] }, "id_gte must be given once"],
    [{ _sort: "__proto__" }, "Cannot sort by __proto__"],
    [{ _sort: "constructor" }, "Cannot sort by constructor"],
    [{ toString: "1" }, "Cannot filter by toString"],
    [{ hasOwnProperty: "1" }, "Cannot filter by hasOwnProperty"],
    [{ id_like: "1" }, "Cannot search id as text"],
  ])("refuses %o with a 400", (query, message) => {
    expect(() => parseListQuery(query, spec)).toThrow(ValidationError);
    expect(() => parseListQuery(query, spec)).toThrow(message);
  });
});
