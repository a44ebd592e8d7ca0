import { describe, expect, it } from "vitest";
import { conflictSentence, describeConflict, differingFields, followLatest, isNewer, pickFields } from "./edit-changes";

const filled = { name: "Wedding", description: "Saturday", clientId: "4" as string | null };

describe("what an edit form sends", () => {
  it("names only the fields the user changed, not one changed and changed back", () => {
    expect(differingFields(filled, { ...filled })).toEqual([]);
    expect(differingFields(filled, { ...filled, name: "Wedding party" })).toEqual(["name"]);
    expect(differingFields(filled, { ...filled, name: "Wedding!", clientId: null })).toEqual(["name", "clientId"]);
    expect(differingFields(filled, { ...filled, description: "Saturday" })).toEqual([]);
  });

  it("picks those fields from the payload, a cleared one included as null", () => {
    const payload = { name: "Wedding", description: null, clientId: 4 };
    expect(pickFields(payload, ["description"])).toEqual({ description: null });
    expect(pickFields(payload, [])).toEqual({});
  });
});

describe("an open form following saves made by others", () => {
  it("takes their values for fields the user has not touched and keeps what the user typed", () => {
    const typed = { ...filled, name: "Wedding party" };
    const theirs = { ...filled, description: "Sunday" };
    expect(followLatest(filled, typed, theirs)).toEqual({
      values: { name: "Wedding party", description: "Sunday", clientId: "4" },
      clashes: [],
    });
  });

  it("reports a field both changed to different values, and not one both changed alike", () => {
    const typed = { ...filled, name: "Mine", description: "Sunday" };
    const theirs = { ...filled, name: "Theirs", description: "Sunday" };
    const followed = followLatest(filled, typed, theirs);
    expect(followed.clashes).toEqual(["name"]);
    expect(followed.values).toEqual(typed);
  });

  it("knows a later save by its version, or by its time when the server sends none", () => {
    expect(isNewer({ version: 4 }, { version: 3 })).toBe(true);
    expect(isNewer({ version: 3 }, { version: 3 })).toBe(false);
    expect(isNewer({ version: 2 }, { version: 3 })).toBe(false);
    expect(isNewer({ updatedAt: "2026-11-29T02:00:01Z" }, { updatedAt: "2026-11-29T02:00:00Z" })).toBe(true);
    expect(isNewer({ updatedAt: "2026-11-29T01:00:00Z" }, { updatedAt: "2026-11-29T02:00:00Z" })).toBe(false);
  });
});

describe("the conflict sentence", () => {
  it("says who changed which fields while the user was editing", () => {
    const ann = { uid: "u2", name: "Ann" };
    expect(conflictSentence(ann, ["Description"])).toBe("Ann changed Description while you were editing");
    expect(conflictSentence(ann, ["Name", "Description"])).toBe(
      "Ann changed Name and Description while you were editing",
    );
    expect(conflictSentence(null, ["Name", "Email", "Phone"])).toBe(
      "Someone else changed Name, Email and Phone while you were editing",
    );
  });

  it("names the fields that differ between the two states by their labels", () => {
    const labels = { name: "Name", description: "Description", clientId: "Client" };
    expect(describeConflict({ uid: "u2", name: "Ann" }, filled, { ...filled, clientId: null }, labels)).toEqual({
      message: "Ann changed Client while you were editing",
      fields: ["Client"],
    });
  });
});
