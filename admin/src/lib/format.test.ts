// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { setLanguage } from "../i18n";
import {
  bytesToGigabytes,
  formatCount,
  formatFileSize,
  formatMegabytes,
  formatStorage,
  roundedAverage,
  storageColor,
} from "./format";
import { formatFileSize as serverFileSize } from "../../../api/format-size";

describe("formatCount", () => {
  it("shows counts below 1,000 as they are", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
  });

  it("shows thousands as K with one decimal from 1,000", () => {
    expect(formatCount(1_000)).toBe("1.0K");
    expect(formatCount(1_250)).toBe("1.3K");
    expect(formatCount(999_949)).toBe("999.9K");
  });

  it("shows millions as M with one decimal from 1,000,000", () => {
    expect(formatCount(1_000_000)).toBe("1.0M");
    expect(formatCount(2_345_678)).toBe("2.3M");
  });
});

describe("formatStorage", () => {
  it("shows storage below 1000 GB in GB", () => {
    expect(formatStorage(0)).toBe("0.0 GB");
    expect(formatStorage(12.34)).toBe("12.3 GB");
    expect(formatStorage(999.9)).toBe("999.9 GB");
  });

  it("switches to TB at 1000 GB", () => {
    expect(formatStorage(1000)).toBe("1.0 TB");
    expect(formatStorage(2450)).toBe("2.5 TB");
  });
});

describe("storageColor", () => {
  it("is blue up to 75 %, orange above 75 % and red above 90 %", () => {
    expect(storageColor(0)).toBe("blue");
    expect(storageColor(75)).toBe("blue");
    expect(storageColor(75.1)).toBe("orange");
    expect(storageColor(90)).toBe("orange");
    expect(storageColor(90.1)).toBe("red");
    expect(storageColor(100)).toBe("red");
  });
});

describe("averages and sizes", () => {
  it("rounds averages and answers 0 when dividing by 0", () => {
    expect(roundedAverage(10, 4)).toBe(3);
    expect(roundedAverage(10, 3)).toBe(3);
    expect(roundedAverage(5, 0)).toBe(0);
  });

  it("converts bytes to GB by dividing by 1024 three times", () => {
    expect(bytesToGigabytes(1024 ** 3)).toBe(1);
    expect(bytesToGigabytes(1024 ** 3 / 2)).toBe(0.5);
  });

  it("formats file sizes in 1024-based units with one decimal", () => {
    expect(formatFileSize(0)).toBe("0 B");
    expect(formatFileSize(1023)).toBe("1023 B");
    expect(formatFileSize(1024)).toBe("1.0 KB");
    expect(formatFileSize(1536)).toBe("1.5 KB");
    expect(formatFileSize(5 * 1024 ** 2)).toBe("5.0 MB");
    expect(formatFileSize(3.25 * 1024 ** 3)).toBe("3.3 GB");
  });

  it("formats upload sizes in MB with two decimals", () => {
    expect(formatMegabytes(1024 ** 2)).toBe("1.00 MB");
    expect(formatMegabytes(1_500_000)).toBe("1.43 MB");
  });
});

describe("in German", () => {
  afterEach(() => setLanguage("en"));

  it("writes sizes, storage and counts with a decimal comma, ungrouped as in English", async () => {
    await setLanguage("de");
    expect(formatFileSize(1023)).toBe("1023 B");
    expect(formatFileSize(3.2 * 1024 ** 2)).toBe("3,2 MB");
    expect(formatFileSize(3.25 * 1024 ** 3)).toBe("3,3 GB");
    expect(formatStorage(12.34)).toBe("12,3 GB");
    expect(formatStorage(2450)).toBe("2,5 TB");
    expect(formatCount(1_250)).toBe("1,3K");
    expect(formatCount(2_345_678)).toBe("2,3M");
    expect(formatMegabytes(1_500_000)).toBe("1,43 MB");
  });

  it("leaves api/format-size, the server's, in English", async () => {
    await setLanguage("de");
    expect(serverFileSize(3.2 * 1024 ** 2)).toBe("3.2 MB");
  });
});
