/**
 * Which photos of a project are selected, without knowing them all: either the listed ids, or
 * every photo of the project but the listed ones ('Select All' on a project of any size, most of
 * it never drawn).
 */
export interface PhotoSelection {
  all: boolean;
  /** Selected ids, or with `all` the ids left out. */
  ids: ReadonlySet<number>;
}

export const NOTHING_SELECTED: PhotoSelection = { all: false, ids: new Set() };
export const EVERYTHING_SELECTED: PhotoSelection = { all: true, ids: new Set() };

export const isSelected = (selection: PhotoSelection, id: number) => selection.ids.has(id) !== selection.all;

export function toggled(selection: PhotoSelection, id: number): PhotoSelection {
  const ids = new Set(selection.ids);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { all: selection.all, ids };
}

/** How many are selected out of the project's `total`. */
export const selectedCount = (selection: PhotoSelection, total: number) =>
  selection.all ? Math.max(0, total - selection.ids.size) : selection.ids.size;

/** The body of DELETE /api/attachments that deletes exactly this selection. */
export function deletionRequest(selection: PhotoSelection, projectId: number, total: number) {
  if (!selection.all) return { ids: [...selection.ids] };
  return { projectId, exceptIds: [...selection.ids], count: selectedCount(selection, total) };
}
