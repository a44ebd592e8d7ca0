import { describe, expect, it } from "vitest";
import {
  deletionRequest,
  EVERYTHING_SELECTED,
  isSelected,
  NOTHING_SELECTED,
  selectedCount,
  toggled,
} from "./photo-selection";

describe("a selection of a project's photos", () => {
  it("counts the ids picked one by one and asks to delete those", () => {
    const selection = toggled(toggled(NOTHING_SELECTED, 4), 9);
    expect(isSelected(selection, 4)).toBe(true);
    expect(isSelected(selection, 5)).toBe(false);
    expect(selectedCount(selection, 10_000)).toBe(2);
    expect(deletionRequest(selection, 7, 10_000)).toEqual({ ids: [4, 9] });
    expect(selectedCount(toggled(selection, 4), 10_000)).toBe(1);
  });

  it("after 'Select All' holds every photo, drawn or not, but those unticked since", () => {
    const selection = toggled(EVERYTHING_SELECTED, 12);
    expect(isSelected(selection, 11)).toBe(true);
    expect(isSelected(selection, 99_999)).toBe(true);
    expect(isSelected(selection, 12)).toBe(false);
    expect(selectedCount(selection, 10_000)).toBe(9_999);
    expect(deletionRequest(selection, 7, 10_000)).toEqual({ projectId: 7, exceptIds: [12], count: 9_999 });
    expect(selectedCount(EVERYTHING_SELECTED, 10_000)).toBe(10_000);
    expect(deletionRequest(EVERYTHING_SELECTED, 7, 10_000)).toEqual({ projectId: 7, exceptIds: [], count: 10_000 });
  });
});
