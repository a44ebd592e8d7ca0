export { LoginPage } from "./login-page";
