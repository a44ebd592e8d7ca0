export { DeliveryCard } from "./delivery-card";
export { DeliveryLinkButtons } from "./delivery-link-buttons";
export { useClientLink } from "./use-client-link";
