import fs from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { expect } from "vitest";

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/**
 * Runs axe-core on the page as it is and expects no critical or serious violation (the context
 * needs `bypassCSP: true`: the app's Content-Security-Policy refuses injected scripts).
 */
export async function expectNoSeriousAxeViolations(page: Page, screen: string): Promise<void> {
  // Colours are judged as they end up: a dialog still fading in (Mantine's 250 ms transitions) has
  // pale text. Endless animations (a loader) are left running.
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document
            .getAnimations()
            .filter((a) => a.playState === "running" && a.effect?.getTiming().iterations !== Infinity).length,
      ),
    )
    .toBe(0);
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Violation[] }> } })
      .axe;
    const { violations } = await axe.run(document);
    return violations
      .filter((v) => v.impact === "critical" || v.impact === "serious")
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => [n.target, n.failureSummary]),
      }));
  });
  expect(violations, `${screen}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
}
