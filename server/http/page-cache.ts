import type { Response } from "express";

/** A list page as it is sent: the JSON body's bytes and the X-Total-Count. */
export interface SentPage {
  body: Buffer;
  total: number;
}

/** A page as a list function makes it: its JSON text, or its bytes as the database gave them. */
export interface ListedPage {
  body: string | Buffer;
  total: number;
}

/** A page's JSON as bytes: a text encoded once, the database's bytes as they are. */
export const bytesOf = (body: ListedPage["body"]): Buffer => (typeof body === "string" ? Buffer.from(body) : body);

/**
 * A record's JSON text (`{"id":…}`, never empty) with more fields after its own, each value JSON
 * already written, as bytes: put together from texts the database wrote, none decoded and written
 * again.
 */
export function withFields(record: string, fields: Record<string, string | Buffer>): Buffer {
  const added = Object.entries(fields).flatMap(([name, value]) => [Buffer.from(`,"${name}":`), bytesOf(value)]);
  return Buffer.concat([Buffer.from(record.slice(0, -1)), ...added, CLOSING_BRACE]);
}

const CLOSING_BRACE = Buffer.from("}");

/** The page's bytes, made once: kept off the JavaScript heap and sent as they are. */
export async function encoded(page: Promise<ListedPage>): Promise<SentPage> {
  const { body, total } = await page;
  return { body: bytesOf(body), total };
}

/**
 * Answers with JSON already encoded. No ETag (the API is `Cache-Control: no-store`), so nothing
 * hashes the body on its way out.
 */
export function sendJson(res: Response, body: Buffer): void {
  res.type("json");
  res.setHeader("Content-Length", body.length);
  res.end(body);
}

/** Answers a list page: its bytes with X-Total-Count. */
export function sendPage(res: Response, page: SentPage): void {
  res.set("X-Total-Count", String(page.total));
  sendJson(res, page.body);
}

interface Entry {
  writeCount: number;
  page: Promise<SentPage>;
  /** The body's length once read; 0 while the query runs. */
  size: number;
}

const MAX_PAGES = 200;
/** Bytes of page bodies kept in all: a whole list without a window can be megabytes. */
const MAX_KEPT = 8_000_000;

/**
 * List pages answered again, serialized, while nothing has been written since they were read:
 * when a change reaches every open browser and each refetches the same page, one query answers
 * them all. An entry is kept with the database's write count taken before its query began and is
 * used only while that count is unchanged, so a read that follows an acknowledged write never
 * gets a page read before it. Only for lists that depend on neither the caller nor the clock;
 * `writeCount` is undefined where writes cannot all be seen (several processes), and then
 * nothing is kept.
 */
export class PageCache {
  private readonly pages = new Map<string, Entry>();
  private kept = 0;

  constructor(private readonly writeCount: () => number | undefined) {}

  get(key: string, load: () => Promise<SentPage>): Promise<SentPage> {
    const writeCount = this.writeCount();
    if (writeCount === undefined) return load();
    const found = this.pages.get(key);
    if (found && found.writeCount === writeCount) {
      // Most recently used last: eviction takes from the front.
      this.pages.delete(key);
      this.pages.set(key, found);
      return found.page;
    }
    if (found) this.remove(key);
    const entry: Entry = { writeCount, page: load(), size: 0 };
    this.pages.set(key, entry);
    entry.page.then(
      ({ body }) => {
        if (this.pages.get(key) !== entry) return;
        entry.size = body.length;
        this.kept += entry.size;
        this.evict();
      },
      // A failed read is not kept: the next request asks the database again.
      () => this.pages.get(key) === entry && this.remove(key),
    );
    this.evict();
    return entry.page;
  }

  private remove(key: string) {
    this.kept -= this.pages.get(key)?.size ?? 0;
    this.pages.delete(key);
  }

  private evict() {
    while (this.pages.size > MAX_PAGES || (this.kept > MAX_KEPT && this.pages.size > 1)) {
      this.remove(this.pages.keys().next().value!);
    }
  }
}
