import { describe, expect, it } from "vitest";
import { sendMail, studioFixture } from "./test-fixtures";

const fixture = studioFixture();

describe("the send budgets against sends at once", () => {
  it("send no more mails than the project's budget when ten sends arrive together", async () => {
    const s = await fixture.studio({ SEND_LIMIT_PER_PROJECT: "2", SEND_LIMIT_PER_USER: "100" });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => sendMail(s.t, s.staff, s.delivery.id, { emails: [`guest${i}@else.test`] })),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 429)).toHaveLength(8);
    expect(fixture.mails).toHaveLength(2);
  });
});
