import simpleRestDataProvider from "@refinedev/simple-rest";
import { http } from "./http";

// The HTTP client already prefixes "/api", so resources are addressed from its root.
export const dataProvider = simpleRestDataProvider("", http);
