import { describe, expect, it } from "vitest";
import type { BusMessage } from "./bus";
import { payloadsFor } from "./pg-relay";

describe("payloads for NOTIFY", () => {
  it("sends a small change as one payload naming its sender", () => {
    const message: BusMessage = { kind: "resource", change: { resource: "clients", type: "created", ids: [7] } };
    expect(payloadsFor("me", message).map((p) => JSON.parse(p))).toEqual([{ from: "me", message }]);
  });

  it("splits a change with thousands of ids into payloads under NOTIFY's 8000-byte limit, losing none", () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => 1_000_000 + i);
    const payloads = payloadsFor("me", { kind: "resource", change: { resource: "attachments", type: "deleted", ids } });
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    const parts = payloads.map((p) => JSON.parse(p).message.change);
    expect(parts.every((c) => c.resource === "attachments" && c.type === "deleted")).toBe(true);
    expect(parts.flatMap((c) => c.ids)).toEqual(ids);
  });
});
