export { PublishControl } from "./publish-control";
export { usePublishActions } from "./use-publish-actions";
export { usePublishProgress } from "./use-publish-progress";
export { ProjectActionsMenu } from "./project-actions-menu";
