export { ApiTokensPage } from "./api-tokens-page";
