// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { makeImage } from "../../../../server/attachments/test-fixtures";
import { setLanguage } from "../../i18n";
import { refusalByContent, refusalByName } from "./file-checks";

const ONLY_IMAGES = "Unsupported file type: only JPEG, PNG, GIF and WebP images";
const NOT_AN_IMAGE = "Unsupported file type: the file's content is not a JPEG, PNG, GIF or WebP image";
const EMPTY_FILE = "The file is empty";

const LIMIT = 10 * 1024 * 1024;
/** The queue's order: name and size first, then the first bytes. */
const refusalOf = async (file: File, limit: number) => refusalByName(file, limit) ?? (await refusalByContent(file));
const fileOf = (bytes: BlobPart, name: string) => new File([bytes], name);

describe("files refused before they are sent", () => {
  it.each(["jpeg", "png", "gif", "webp"] as const)("accepts a real %s image", async (format) => {
    const bytes = Uint8Array.from(await makeImage(format));
    expect(await refusalOf(fileOf(bytes, `photo.${format === "jpeg" ? "JPG" : format}`), LIMIT)).toBeNull();
  });

  it("refuses a name that is not an image's, whatever its bytes", async () => {
    const bytes = Uint8Array.from(await makeImage("jpeg"));
    expect(await refusalOf(fileOf(bytes, "notes.txt"), LIMIT)).toBe(ONLY_IMAGES);
    expect(await refusalOf(fileOf("x", "big.bin"), LIMIT)).toBe(ONLY_IMAGES);
    expect(await refusalOf(fileOf(bytes, "photo"), LIMIT)).toBe(ONLY_IMAGES);
  });

  it("refuses an image name whose first bytes are not an image", async () => {
    expect(await refusalOf(fileOf("these bytes are text, not a PNG", "fake.png"), LIMIT)).toBe(NOT_AN_IMAGE);
    expect(await refusalOf(fileOf("", "empty.jpg"), LIMIT)).toBe(EMPTY_FILE);
  });

  it("refuses a file over the server's limit, saying both sizes", async () => {
    const big = new File([new Uint8Array(LIMIT + 1)], "huge.jpg");
    expect(await refusalOf(big, LIMIT)).toBe("File too large: 10.0 MB, over the 10.0 MB limit");
    const over = new File([new Uint8Array(34 * 1024 * 1024)], "34mb.jpg");
    expect(await refusalOf(over, LIMIT)).toBe("File too large: 34.0 MB, over the 10.0 MB limit");
  });

  describe("in German", () => {
    afterEach(() => setLanguage("en"));

    it("says why in the web app's language, sizes with a decimal comma", async () => {
      await setLanguage("de");
      expect(await refusalOf(fileOf("x", "notes.txt"), LIMIT)).toBe(
        "Dateityp nicht unterstützt: nur JPEG-, PNG-, GIF- und WebP-Bilder",
      );
      expect(await refusalOf(fileOf("", "empty.jpg"), LIMIT)).toBe("Die Datei ist leer");
      expect(await refusalOf(fileOf("text", "fake.png"), LIMIT)).toMatch(/^Dateityp nicht unterstützt: Der Inhalt/);
      const over = new File([new Uint8Array(34 * 1024 * 1024)], "34mb.jpg");
      expect(await refusalOf(over, LIMIT)).toBe("Datei zu groß: 34,0 MB, mehr als die erlaubten 10,0 MB");
    });
  });
});
