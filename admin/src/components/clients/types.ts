/** A row of GET /api/clients (contract section 3). */
export interface Client {
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
  projectCount: number;
  contactCount: number;
}

export interface ClientFormValues {
  name: string;
}

export interface ClientPayload {
  name: string;
}
