import type { LinkSigner } from "./signed-links";

/** Where a row of a page starts. A quote inside a JSON text is escaped, so no value holds this. */
const ROW_START = Buffer.from('{"id":');
const DIGIT_0 = 0x30;

/**
 * A page of the list (`[{"id":1,…},{"id":2,…}]`, the JSON array the database joined) with each
 * row's four signed links added as its last fields, as one buffer: the rows are not decoded, and
 * nothing is encoded again but the links.
 */
export function withLinks(page: Buffer, links: LinkSigner): Buffer {
  const starts: number[] = [];
  const ids: number[] = [];
  for (let at = page.indexOf(ROW_START); at >= 0; at = page.indexOf(ROW_START, at + ROW_START.length)) {
    starts.push(at);
    let id = 0;
    for (let i = at + ROW_START.length; page[i] >= DIGIT_0 && page[i] <= DIGIT_0 + 9; i++)
      id = id * 10 + page[i] - DIGIT_0;
    ids.push(id);
  }
  if (ids.length === 0) return page;
  const added = links
    .urlsOf(ids)
    .map(
      ({ view, download, thumbnail, preview }) =>
        `,"viewUrl":"${view}","downloadUrl":"${download}","thumbnailUrl":"${thumbnail}","previewUrl":"${preview}"`,
    );
  const out = Buffer.allocUnsafe(page.length + added.reduce((sum, text) => sum + text.length, 0));
  let from = 0;
  let to = 0;
  starts.forEach((_, i) => {
    // A row ends with its "}", right before the next row's ",{" or the array's "]".
    const end = (i + 1 < starts.length ? starts[i + 1] - 1 : page.length - 1) - 1;
    to += page.copy(out, to, from, end);
    to += out.write(added[i], to, "latin1");
    from = end;
  });
  page.copy(out, to, from);
  return out;
}
