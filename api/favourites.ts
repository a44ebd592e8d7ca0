/**
 * Favourites: what a delivery page's visitors choose and what the studio sees of it. Shapes and
 * rules shared by the server and the web app; plain code, safe in either.
 */

/** GET /d/{token}/favourites: the visitor's own list (never anyone else's), for the page's script. */
export interface VisitorFavourites {
  /** Photos each visitor may choose; null: no limit. */
  limit: number | null;
  /** Who the page's cookie says this is; null before they gave a name. */
  visitor: { name: string; email: string } | null;
  /** The list as it is now has been sent to the studio (false again after a change). */
  sent: boolean;
  /** The photos chosen, in the delivery's order: `n` is the photo's position on the page (1-based). */
  favourites: Array<{ n: number; name: string; ratio: number | null; comment: string | null }>;
}

/** GET /api/projects/{id}/favourites: one visitor of the delivery page and their list. */
export interface FavouriteVisitor {
  id: number;
  projectId: number;
  name: string;
  email: string;
  /** Photos on the list. */
  count: number;
  /** Of those, with a comment. */
  comments: number;
  createdAt: string;
  /** The last change to the list or a comment. */
  changedAt: string;
  /** The last time the visitor sent the list; null if never. */
  submittedAt: string | null;
  /** Sent, and not changed since. */
  sent: boolean;
}

/** One photo a visitor chose (GET /api/projects/{id}/favourites/{visitorId}). */
export interface FavouritePick {
  attachmentId: number;
  originalName: string;
  comment: string | null;
  /** A signed thumbnail link, as attachments carry. */
  thumbnailUrl: string;
}

export interface FavouriteSelection extends FavouriteVisitor {
  picks: FavouritePick[];
}

export const NAME_MAX = 100;
export const COMMENT_MAX = 200;
/** The largest limit the 'Delivery' card accepts. */
export const FAVOURITES_LIMIT_MAX = 10_000;

// Control characters (line breaks and tabs among them) and the Unicode line and paragraph separators.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** One line of plain text: no control characters, and no `<` or `>`, so nothing can read as HTML. */
export function isPlainLine(value: string): boolean {
  return !CONTROL.test(value) && !/[<>]/.test(value);
}

export const NOT_PLAIN = "Use plain text on one line, without < or >";

/** A file's name without its extension (`IMG_0001.jpg` → `IMG_0001`), as Lightroom's filter wants it. */
export function withoutExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

/** The picks' file names one per line. */
export const fileNameLines = (names: string[]) => names.join("\n");

/** Lightroom's Library filter text for the picks: `IMG_0001 OR IMG_0002 OR …`, extensions dropped. */
export const lightroomFilter = (names: string[]) => names.map(withoutExtension).join(" OR ");
