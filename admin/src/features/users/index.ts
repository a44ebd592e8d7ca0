import { lazy } from "react";

/** Loaded with its page, so the table library stays out of the first load. */
export const UserList = lazy(() => import("./user-list").then((m) => ({ default: m.UserList })));
export { UsersNavLink } from "./users-nav-link";
export { NoAccess } from "./no-access";
export { useAccessWatch } from "./use-access-watch";
