export { DeliveryCard } from "./delivery-card";
export { DeliveryLinkButtons } from "./delivery-link-buttons";
