import { lazy } from "react";

/** Loaded with its page. */
export const StudioSettingsPage = lazy(() =>
  import("./studio-settings-page").then((m) => ({ default: m.StudioSettingsPage })),
);
export { StudioNavLink } from "./studio-nav-link";
