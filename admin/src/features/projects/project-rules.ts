export { nameError } from "../../lib/name-rule";
