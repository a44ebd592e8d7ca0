import { useList, useUpdate, type BaseKey, type BaseRecord, type HttpError } from "@refinedev/core";
import type { FormValues, RecordVersion } from "./edit-changes";
import { useVersionedEdit, type EditableForm, type VersionedEditOptions } from "./use-versioned-edit";

interface UpdateOptions<R> {
  /** The record's id in its resource's URL. */
  idOf: (record: R) => BaseKey;
  successMessage: string;
  invalidates?: Array<"list" | "many" | "detail" | "resourceAll" | "all">;
}

/**
 * A `send` for `useVersionedEdit` through the data provider: PATCH of the changed fields, with
 * `meta.ifMatch` (the data provider turns it into If-Match). Failures are shown by the form.
 */
export function useVersionedUpdate<R extends BaseRecord & RecordVersion>(
  resource: string,
  { idOf, successMessage, invalidates }: UpdateOptions<R>,
) {
  const { mutateAsync } = useUpdate<R, HttpError, object>();
  return async (changes: object, version: number | undefined, record: R): Promise<R> => {
    const { data } = await mutateAsync({
      resource,
      id: idOf(record),
      values: changes,
      meta: { ifMatch: version },
      successNotification: { type: "success", message: successMessage },
      errorNotification: false,
      ...(invalidates ? { invalidates } : {}),
    });
    return data;
  };
}

/**
 * A record as its resource's list has it now (filtered by id: a few hundred bytes, without what a
 * record's own URL embeds), refetched on every live change of the resource while `enabled`.
 */
function useLatestRecord<R extends BaseRecord>(resource: string, id: BaseKey | undefined, enabled: boolean) {
  const { result } = useList<R>({
    resource,
    filters: [{ field: "id", operator: "eq", value: id }],
    pagination: { mode: "off" },
    queryOptions: { enabled: enabled && id !== undefined },
    errorNotification: false,
  });
  const record = result.data[0] as R | undefined;
  // While another record's query answers (the dialog reopened for a new one), nothing.
  return enabled && record && String(record.id) === String(id) ? record : undefined;
}

/** What `useVersionedModalEdit` needs of a Refine modal form (`useModalForm`). */
interface ModalEditForm<V> extends EditableForm<V> {
  modal: { visible: boolean };
  refineCore: { id?: BaseKey };
}

interface ModalEditOptions<V extends FormValues, R extends RecordVersion, P extends object> extends Omit<
  VersionedEditOptions<V, R, P>,
  "form" | "send" | "latest" | "initial"
> {
  resource: string;
  successMessage: string;
  invalidates?: UpdateOptions<R>["invalidates"];
  /** Told of each record saved (after the dialog's own handling). */
  onSaved?: (record: R) => void;
}

/**
 * `useVersionedEdit` for an edit dialog made with `useModalForm`: PATCH of the changed fields through
 * the data provider, and the record followed live (from its resource's list) while the dialog is open.
 */
export function useVersionedModalEdit<V extends FormValues, R extends BaseRecord & RecordVersion, P extends object>(
  form: ModalEditForm<V>,
  action: "create" | "edit",
  { resource, successMessage, invalidates, onSaved, ...edit }: ModalEditOptions<V, R, P>,
) {
  const update = useVersionedUpdate<R>(resource, {
    idOf: (record) => record.id as BaseKey,
    successMessage,
    invalidates,
  });
  const latest = useLatestRecord<R>(resource, form.refineCore.id, action === "edit" && form.modal.visible);
  return useVersionedEdit<V, R, P>({
    ...edit,
    form,
    latest,
    send: async (changes, version, record) => {
      const saved = await update(changes, version, record);
      onSaved?.(saved);
      return saved;
    },
  });
}
