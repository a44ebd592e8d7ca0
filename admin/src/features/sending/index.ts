export { DeliveryActivityCard } from "./activity-card";
export { NotificationSettingsButton } from "./notification-settings-button";
export { SendToClientButton } from "./send-dialog";
