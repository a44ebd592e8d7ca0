export { UserList } from "./user-list";
export { UsersNavLink } from "./users-nav-link";
export { NoAccess } from "./no-access";
export { useAccessWatch } from "./use-access-watch";
