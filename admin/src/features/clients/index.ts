export { ClientList } from "./client-list";
export { ClientShow } from "./client-show";
