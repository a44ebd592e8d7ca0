import { useLocation } from "react-router";
import { ProjectsPanel } from "./projects-panel";

/** /projects/all and /projects/recent: every project, newest first. */
export function ProjectList() {
  const recent = useLocation().pathname.endsWith("/recent");
  return <ProjectsPanel title={recent ? "Recent Projects" : "All Projects"} />;
}
