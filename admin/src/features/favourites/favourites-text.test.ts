import { describe, expect, it } from "vitest";
import { fileNameLines, isPlainLine, lightroomFilter, withoutExtension } from "../../../../api/favourites";

describe("what the 'Favourites' card copies", () => {
  it("gives the picks' file names one per line", () => {
    expect(fileNameLines(["IMG_0001.jpg", "IMG_0002.JPG"])).toBe("IMG_0001.jpg\nIMG_0002.JPG");
  });

  it("gives Lightroom's filter text with the extensions dropped", () => {
    expect(lightroomFilter(["IMG_0001.jpg", "IMG_0002.CR3.jpg", "noext", ".hidden"])).toBe(
      "IMG_0001 OR IMG_0002.CR3 OR noext OR .hidden",
    );
    expect(withoutExtension("DSC 0042.jpeg")).toBe("DSC 0042");
  });
});

describe("the rules a visitor's text follows", () => {
  it("takes one line of plain text, and nothing with a line break, a control character or < >", () => {
    expect(isPlainLine("Brighter, please — and crop a bit")).toBe(true);
    for (const bad of ["a\nb", "a\rb", "tab\there", "bell\u0007", "<b>", "x > y", "line\u2028sep"])
      expect(isPlainLine(bad), JSON.stringify(bad)).toBe(false);
  });
});
