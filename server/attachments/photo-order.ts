/** How a project's photos are ordered everywhere (staff list, gallery, ZIPs, favourites). */
export const PHOTO_ORDERS = ["captured", "name", "uploaded"] as const;
export type PhotoOrder = (typeof PHOTO_ORDERS)[number];
export const DEFAULT_PHOTO_ORDER: PhotoOrder = "captured";

/** The attachments columns each order sorts by, ascending; each pair is an index after project_id. */
const ORDER_COLUMNS: Record<PhotoOrder, [string, string]> = {
  captured: ["capture_key", "id"],
  name: ["name_key", "id"],
  uploaded: ["created_at", "id"],
};

export function photoOrderOf(value: unknown): PhotoOrder {
  return PHOTO_ORDERS.includes(value as PhotoOrder) ? (value as PhotoOrder) : DEFAULT_PHOTO_ORDER;
}

/** The ORDER BY columns of an order (a list query's sort), optionally qualified by a table alias. */
export function photoOrderColumns(order: PhotoOrder, alias?: string): Array<{ column: string; order: "asc" }> {
  return ORDER_COLUMNS[order].map((column) => ({ column: alias ? `${alias}.${column}` : column, order: "asc" }));
}

const firstBy = (project: string, [key, id]: [string, string]) =>
  `(SELECT id FROM attachments WHERE project_id = ${project}.id ORDER BY ${key}, ${id} LIMIT 1)`;

/**
 * SQL for the id of a project's first photo in its own order (`project` is the projects table's
 * alias): the cover when none is chosen. One index seek each; upload order's first is kept on the
 * row by triggers (migration add_projects_first_attachment).
 */
export function firstPhotoIdSql(project: string): string {
  return (
    `CASE ${project}.photo_order WHEN 'name' THEN ${firstBy(project, ORDER_COLUMNS.name)} ` +
    `WHEN 'uploaded' THEN ${project}.first_attachment_id ELSE ${firstBy(project, ORDER_COLUMNS.captured)} END`
  );
}

const DIGIT_RUN = /\d+/g;
const KEY_DIGITS = 20;

/**
 * A file name's natural-order key, compared byte by byte (sqlite's BINARY, PostgreSQL's "C"):
 * case and accents folded, every run of digits zero-padded, so IMG_2 sorts before IMG_10.
 */
export function nameKey(name: string): string {
  const folded = name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  return folded.replace(DIGIT_RUN, (run) => {
    const digits = run.replace(/^0+(?=\d)/, "");
    return digits.length >= KEY_DIGITS ? digits : digits.padStart(KEY_DIGITS, "0");
  });
}

/**
 * The capture order's key: the UTC capture time (ISO, which sorts as text), or for a photo
 * without one its name key after every time ("~" sorts after digits), so those follow by name.
 */
function captureKey(capturedAt: string | null, name: string): string {
  return capturedAt ?? `~${nameKey(name)}`;
}

/** The key columns of a photo with this name and capture time. */
export function orderKeys(name: string, capturedAt: string | null) {
  return { name_key: nameKey(name), capture_key: captureKey(capturedAt, name) };
}
