export { AccessGate } from "./access-gate";
export { LoginPage } from "./login-page";
export { RequestAccessPage } from "./request-access-page";
export { useAuthConfig } from "./use-auth-config";
