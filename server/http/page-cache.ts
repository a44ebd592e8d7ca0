/** A list page as it is sent: the JSON body and the X-Total-Count. */
export interface SentPage {
  body: string;
  total: number;
}

interface Entry {
  writeCount: number;
  page: Promise<SentPage>;
}

const MAX_PAGES = 200;

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

  constructor(private readonly writeCount: () => number | undefined) {}

  get(key: string, load: () => Promise<{ rows: unknown[]; total: number }>): Promise<SentPage> {
    const writeCount = this.writeCount();
    if (writeCount === undefined) return serialize(load());
    const found = this.pages.get(key);
    this.pages.delete(key);
    if (found && found.writeCount === writeCount) {
      this.pages.set(key, found);
      return found.page;
    }
    const entry = { writeCount, page: serialize(load()) };
    this.pages.set(key, entry);
    if (this.pages.size > MAX_PAGES) this.pages.delete(this.pages.keys().next().value!);
    // A failed read is not kept: the next request asks the database again.
    entry.page.catch(() => {
      if (this.pages.get(key) === entry) this.pages.delete(key);
    });
    return entry.page;
  }
}

async function serialize(loading: Promise<{ rows: unknown[]; total: number }>): Promise<SentPage> {
  const { rows, total } = await loading;
  return { body: JSON.stringify(rows), total };
}
