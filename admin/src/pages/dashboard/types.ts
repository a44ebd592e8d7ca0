/** GET /api/dashboard/stats; sizes in bytes, disk figures in GB (contract section 3). */
export interface DashboardStats {
  clientCount: number;
  projectCount: number;
  attachmentCount: number;
  totalFileSize: number;
  diskUsage: { used: number; total: number; percentage: number };
}
