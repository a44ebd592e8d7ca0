import { ProjectsPanel } from "../../components/projects/projects-panel";

export function ProjectList() {
  return <ProjectsPanel title="All Projects" />;
}
