import { lazy } from "react";

/** Loaded with its page. */
export const WebhooksPage = lazy(() => import("./webhooks-page").then((m) => ({ default: m.WebhooksPage })));
export { WebhooksNavLink } from "./webhooks-nav-link";
