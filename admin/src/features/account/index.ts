export { ApiTokensPage } from "./api-tokens-page";
export { SecurityPage } from "./security/security-page";
