import { useEffect, useRef, useState } from "react";
import type { HttpError } from "@refinedev/core";
import {
  describeConflict,
  differingFields,
  followLatest,
  isNewer,
  pickFields,
  type EditConflict,
  type FormValues,
  type RecordEditor,
  type RecordVersion,
} from "./edit-changes";

/** What the hook needs of a Mantine form. */
export interface EditableForm<V> {
  values: V;
  setValues: (values: V) => void;
  /** Mantine's: what "unsaved changes" are measured against. */
  resetDirty?: (values: V) => void;
}

export interface VersionedEditOptions<V extends FormValues, R extends RecordVersion, P extends object> {
  form: EditableForm<V>;
  /** The record as the form shows it. */
  toValues: (record: R) => V;
  /** The form's values as the API takes them (same field names). */
  toPayload: (values: V) => P;
  /** How each field is named on screen, for "<name> changed Description while you were editing". */
  labels: Record<keyof V & string, string>;
  /** Writes the changed fields, with If-Match of `version` when there is one; answers the saved record. */
  send: (changes: Partial<P>, version: number | undefined, record: R) => Promise<R>;
  /** The record as the screen has it now, when the screen follows it live: untouched fields follow it. */
  latest?: R;
  /** The record a form that is always shown (not a dialog) starts from, as its initial values show it. */
  initial?: R;
}

/** The record as the server has it now, when it refused a write with 412. */
export const conflictOf = <R>(error: unknown): { current: R; changedBy: RecordEditor | null } | null => {
  const failure = error as Partial<HttpError> | undefined;
  return failure?.statusCode === 412 && failure.current
    ? { current: failure.current, changedBy: failure.changedBy }
    : null;
};

/** How a save ended: written, nothing to write, or refused because someone saved first (now shown). */
export type SaveOutcome<R> = { status: "saved"; record: R } | { status: "unchanged" } | { status: "conflict" };

interface Base<V, R> {
  record: R;
  values: V;
}

/**
 * An edit form that cannot lose another editor's save: it sends only the fields the user changed
 * with If-Match of the version it was filled from; on 412 it keeps what the user typed, takes the
 * current record as its new base (untouched fields follow it) and says who changed what, offering
 * to apply the user's changes on top or to discard them. Fields the user has not touched follow
 * `latest` while the form is open.
 */
export function useVersionedEdit<V extends FormValues, R extends RecordVersion, P extends object>(
  options: VersionedEditOptions<V, R, P>,
) {
  const { form, toValues, labels } = options;
  const [base, setBase] = useState<Base<V, R> | null>(() =>
    options.initial ? { record: options.initial, values: toValues(options.initial) } : null,
  );
  const [conflict, setConflict] = useState<EditConflict | null>(null);
  const [saving, setSaving] = useState(false);

  const startFrom = (record: R, values = toValues(record)) => {
    setBase({ record, values });
    return values;
  };

  /** Fills the form from a record and forgets any conflict. */
  const start = (record: R) => {
    const values = startFrom(record);
    form.setValues(values);
    form.resetDirty?.(values);
    setConflict(null);
  };

  /**
   * The form brought up to `current`, a later save: untouched fields follow it. Who changed what
   * (since `told`, the values a refused write started from) is said when `told` is given, or when
   * they changed a field the user changed too.
   */
  const follow = (current: R, editor: RecordEditor | null | undefined, told?: V) => {
    if (!base) return;
    const currentValues = toValues(current);
    const { values, clashes } = followLatest(base.values, form.values, currentValues);
    form.setValues(values);
    startFrom(current, currentValues);
    const theirs = describeConflict(editor, told ?? base.values, currentValues, labels);
    if (theirs.fields.length && (told || clashes.length)) setConflict(theirs);
  };

  // Effects and answers that arrive later reach the form as it is then, through this ref.
  const followRef = useRef(follow);
  followRef.current = follow;
  const followLive = (latest: R) => {
    if (base && isNewer(latest, base.record)) follow(latest, latest.updatedBy);
  };
  const followLiveRef = useRef(followLive);
  followLiveRef.current = followLive;
  const { latest } = options;
  useEffect(() => {
    if (latest) followLiveRef.current(latest);
  }, [latest]);

  const sendFrom = async (changes: Partial<P>, from: Base<V, R>, retried = false): Promise<R | null> => {
    try {
      return await options.send(changes, from.record.version, from.record);
    } catch (error) {
      const refused = conflictOf<R>(error);
      if (!refused) throw error;
      // A save that changed none of this form's fields (a photo added, say) is no conflict: send again on top.
      if (!retried && differingFields(from.values, toValues(refused.current)).length === 0)
        return sendFrom(changes, { record: refused.current, values: from.values }, true);
      followRef.current(refused.current, refused.changedBy, from.values);
      return null;
    }
  };

  /** Sends the user's changes. Failures other than a conflict reject, for the form to show. */
  const save = async (): Promise<SaveOutcome<R>> => {
    if (!base) return { status: "unchanged" };
    const changes = pickFields(options.toPayload(form.values), differingFields(base.values, form.values));
    if (Object.keys(changes).length === 0) {
      setConflict(null);
      return { status: "unchanged" };
    }
    setSaving(true);
    try {
      const saved = await sendFrom(changes, base);
      if (!saved) return { status: "conflict" };
      setConflict(null);
      const values = startFrom(saved);
      form.setValues(values);
      form.resetDirty?.(values);
      return { status: "saved", record: saved };
    } finally {
      setSaving(false);
    }
  };

  /** Keeps the record as the other editor left it: the form shows it and starts from it. */
  const discardMine = () => {
    if (base) form.setValues(base.values);
    setConflict(null);
  };

  return {
    start,
    save,
    discardMine,
    conflict,
    saving,
  };
}
