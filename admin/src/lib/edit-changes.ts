import { t } from "../i18n";

/**
 * What an edit form sends and how it follows a record others change: the form keeps the values it
 * was filled with (its base) and compares field by field, so it sends only what the user changed
 * and refreshes only what the user has not touched.
 */

/** Who saved a record last, as the API names them. */
export interface RecordEditor {
  uid: string;
  name: string;
}

/** What every editable record carries (optional while a server without versions answers). */
export interface RecordVersion {
  version?: number;
  updatedBy?: RecordEditor | null;
  updatedAt?: string | null;
}

/** A form's values by field name (an interface of them is one). */
export type FormValues = object;

const valueOf = (values: object, field: string): unknown => (values as Record<string, unknown>)[field];

export const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === "object" && typeof b === "object" && JSON.stringify(a) === JSON.stringify(b));

/** The fields whose values differ between two states of one form (a field changed back is not one). */
export function differingFields<V extends FormValues>(a: V, b: V): Array<keyof V & string> {
  return Object.keys(a).filter((field) => !sameValue(valueOf(a, field), valueOf(b, field))) as Array<keyof V & string>;
}

/** The part of a payload that carries the given fields: nothing the user left alone is sent. */
export function pickFields<P extends object>(payload: P, fields: readonly string[]): Partial<P> {
  return Object.fromEntries(Object.entries(payload).filter(([field]) => fields.includes(field))) as Partial<P>;
}

/** Whether `latest` is a later save of the record than `base` (by version, else by its time). */
export function isNewer(latest: RecordVersion, base: RecordVersion): boolean {
  if (latest.version !== undefined && base.version !== undefined) return latest.version > base.version;
  return Boolean(latest.updatedAt && (!base.updatedAt || latest.updatedAt > base.updatedAt));
}

export interface Followed<V extends FormValues> {
  /** The form's values: the latest record's where the user had not touched a field, the user's elsewhere. */
  values: V;
  /** Fields the user changed that someone else changed too, to something else. */
  clashes: Array<keyof V & string>;
}

/** A form (filled from `base`, now holding `values`) brought up to a later save of its record. */
export function followLatest<V extends FormValues>(base: V, values: V, latest: V): Followed<V> {
  const next = { ...values } as Record<string, unknown>;
  const clashes: Array<keyof V & string> = [];
  for (const field of Object.keys(latest) as Array<keyof V & string>) {
    const [was, mine, theirs] = [valueOf(base, field), valueOf(values, field), valueOf(latest, field)];
    if (sameValue(mine, was)) next[field] = theirs;
    else if (!sameValue(theirs, was) && !sameValue(theirs, mine)) clashes.push(field);
  }
  return { values: next as V, clashes };
}

/** "Name", "Name and Description", "Name, Email and Phone". */
export function listOf(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return t("app.listAnd", { rest: words.slice(0, -1).join(", "), last: words[words.length - 1] });
}

/** "<name> changed Description while you were editing". */
export function conflictSentence(editor: RecordEditor | null | undefined, fieldLabels: readonly string[]): string {
  const who = editor?.name || t("app.someoneElse");
  const what = fieldLabels.length ? listOf(fieldLabels) : t("app.thisRecord");
  return t("app.changedWhileEditing", { who, what });
}

/** Someone saved the record while the user was editing it. */
export interface EditConflict {
  /** "<name> changed Description while you were editing". */
  message: string;
  fields: string[];
}

/** What `editor` changed of a record (from `before` to `after`), as the user is told it. */
export function describeConflict<V extends FormValues>(
  editor: RecordEditor | null | undefined,
  before: V,
  after: V,
  labels: Partial<Record<keyof V & string, string>>,
): EditConflict {
  const fields = differingFields(before, after).map((field) => labels[field] ?? field);
  return { message: conflictSentence(editor, fields), fields };
}
