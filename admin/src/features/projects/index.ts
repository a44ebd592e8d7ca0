export { ProjectList } from "./project-list";
export { ProjectShow } from "./project-show";
export { ProjectsPanel } from "./projects-panel";
