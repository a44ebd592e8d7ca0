import type { Editor } from "../../api/types";
import type { JsonSql, JsonValue } from "./json-select";

/** The name an editor is shown by (display name, else e-mail), as SQL over a `updated_by` column. */
const editorNameSql = (uidColumn: string): string =>
  `(SELECT COALESCE(NULLIF(editor.display_name, ''), editor.email) FROM users editor WHERE editor.uid = ${uidColumn})`;

/** The editor's name read beside a row as `updated_by_name`, for editorOf. */
export const editorNameColumn = (uidColumn: string): string => `${editorNameSql(uidColumn)} AS updated_by_name`;

/** A record's `updatedBy` built by the database: `{uid, name}`, or null before anyone edited it. */
export const updatedByJson = (json: JsonSql, uidColumn: string): JsonValue =>
  json.objectWhen(`${uidColumn} IS NOT NULL`, {
    uid: uidColumn,
    name: `COALESCE(${editorNameSql(uidColumn)}, ${uidColumn})`,
  });

/** `updatedBy` from a row's `updated_by` and the name read beside it. */
export const editorOf = (uid: string | null | undefined, name: string | null | undefined): Editor | null =>
  uid ? { uid, name: name ?? uid } : null;
