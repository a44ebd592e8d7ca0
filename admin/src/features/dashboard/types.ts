export type { DashboardStats } from "../../../../api/types";
