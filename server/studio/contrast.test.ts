import { describe, expect, it } from "vitest";
import { contrastRatio, relativeLuminance, textColourOn } from "../../api/studio";

const hex = (r: number, g: number, b: number) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;

describe("the text colour on the studio's accent", () => {
  it("measures luminance and contrast as WCAG 2 does", () => {
    expect(relativeLuminance("#000000")).toBe(0);
    expect(relativeLuminance("#ffffff")).toBeCloseTo(1, 10);
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 10);
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 10);
    // Published figures: #767676 on white is the lightest grey that passes AA (4.54:1).
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(contrastRatio("#1971c2", "#ffffff")).toBeGreaterThan(4.5);
  });

  it.each([
    ["#ffff00", "#000000"], // yellow
    ["#ffd43b", "#000000"],
    ["#fab005", "#000000"],
    ["#808080", "#000000"], // mid-grey: black reads 5.3:1, white only 3.9:1
    ["#777777", "#000000"],
    ["#767676", "#000000"], // white reads 4.54:1 on it, black 4.62:1
    ["#707070", "#ffffff"],
    ["#1971c2", "#ffffff"],
    ["#000080", "#ffffff"],
    ["#e03131", "#000000"], // a bright red: black 4.65:1, white 4.51:1
    ["#c92a2a", "#ffffff"],
    ["#2f9e44", "#000000"],
    ["#ffffff", "#000000"],
    ["#000000", "#ffffff"],
  ])("picks %s → %s", (accent, text) => {
    expect(textColourOn(accent)).toBe(text);
  });

  it("passes AA (4.5:1) on every accent: every grey and a 16-step sweep of the colour cube", () => {
    const accents: string[] = [];
    for (let v = 0; v <= 255; v++) accents.push(hex(v, v, v));
    for (let r = 0; r <= 255; r += 17)
      for (let g = 0; g <= 255; g += 17) for (let b = 0; b <= 255; b += 17) accents.push(hex(r, g, b));
    let worst = 21;
    for (const accent of accents) {
      const ratio = contrastRatio(accent, textColourOn(accent));
      expect(ratio, accent).toBeGreaterThanOrEqual(4.5);
      worst = Math.min(worst, ratio);
    }
    // The worst case sits where black and white tie, near luminance 0.18.
    expect(worst).toBeLessThan(4.7);
  });

  it("reads the hex digits in either case", () => {
    expect(textColourOn("#FFFF00")).toBe("#000000");
    expect(relativeLuminance("#ABCDEF")).toBeCloseTo(relativeLuminance("#abcdef"), 12);
  });
});
